// Faultline's own topology JSON (docs/formats.md, "faultline-topology"): the cluster by
// name, for fabrics no tool describes.
#include "importers/text/json_parse.h"
#include "importers/native/readers.h"
#include "importers/text/read_whole_file.h"
#include "importers/events/topology_builder.h"

#include <nlohmann/json.hpp>

namespace faultline {

namespace {

std::string str(const nlohmann::json& o, const char* key, const std::string& where) {
    auto it = o.find(key);
    if (it == o.end() || !it->is_string() || it->get<std::string>().empty()) throw Error(where + ": expected a \"" + key + "\" string");
    return it->get<std::string>();
}

std::string kindOf(const nlohmann::json& v) {
    if (v.is_string()) return "text " + v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (v.is_number()) return "the number " + v.dump();
    if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
    if (v.is_array()) return "a list";
    if (v.is_object()) return "an object";
    return "null";
}

std::string textOr(const nlohmann::json& o, const char* key, const std::string& fallback, const std::string& where) {
    auto it = o.find(key);
    if (it == o.end()) return fallback;
    if (!it->is_string()) throw Error(where + ": expected \"" + key + "\" to be text, found " + kindOf(*it));
    return it->get<std::string>();
}

std::int64_t integerOr(const nlohmann::json& o, const char* key, std::int64_t fallback, const std::string& where) {
    auto it = o.find(key);
    if (it == o.end()) return fallback;
    if (!it->is_number_integer() || (it->is_number_unsigned() && it->get<std::uint64_t>() > INT64_MAX))
        throw Error(where + ": expected \"" + key + "\" to be a whole number, found " + kindOf(*it));
    return it->get<std::int64_t>();
}

SwitchTier tierFrom(const std::string& s, const std::string& where) {
    if (s == "RTSW" || s == "rack") return SwitchTier::Rack;
    if (s == "CTSW" || s == "cluster") return SwitchTier::Cluster;
    if (s == "ATSW" || s == "aggregation") return SwitchTier::Aggregation;
    throw Error(where + ": tier \"" + s + "\" is not RTSW, CTSW or ATSW");
}

}  // namespace

void importFaultlineTopology(const std::string& path, ImportContext& ctx) {
    const nlohmann::json doc = parseJson(readWholeFile(path, std::size_t{1} << 30), path, "a Faultline topology");
    if (!doc.is_object() || textOr(doc, "format", "", path) != "faultline-topology")
        throw Error(path + ": expected an object with \"format\": \"faultline-topology\"");
    if (const std::int64_t version = integerOr(doc, "version", 0, path); version != 1)
        throw Error(path + ": topology version " + std::to_string(version) + " (expected 1)");
    TopologyBuilder b;
    auto array = [&](const char* key) -> const nlohmann::json& {
        static const nlohmann::json empty = nlohmann::json::array();
        auto it = doc.find(key);
        if (it == doc.end()) return empty;
        if (!it->is_array()) throw Error(path + ": \"" + key + "\" must be a list");
        return *it;
    };
    std::map<std::string, std::int32_t> zones, racks;
    for (std::size_t i = 0; i < array("zones").size(); ++i) {
        const std::string where = path + ": zones[" + std::to_string(i) + "]";
        const std::string name = str(array("zones")[i], "name", where);
        zones[name] = b.zone(name);
    }
    if (zones.empty()) zones["zone0"] = b.zone("zone0");
    auto zoneNamed = [&](const nlohmann::json& o, const std::string& where) {
        const std::string z = textOr(o, "zone", zones.begin()->first, where);
        auto it = zones.find(z);
        if (it == zones.end()) throw Error(where + ": zone \"" + z + "\" is not in \"zones\"");
        return it->second;
    };
    for (std::size_t i = 0; i < array("racks").size(); ++i) {
        const nlohmann::json& r = array("racks")[i];
        const std::string where = path + ": racks[" + std::to_string(i) + "]";
        const std::string name = str(r, "name", where);
        racks[name] = b.rack(name, zoneNamed(r, where));
    }
    for (std::size_t i = 0; i < array("hosts").size(); ++i) {
        const nlohmann::json& h = array("hosts")[i];
        const std::string where = path + ": hosts[" + std::to_string(i) + "]";
        const std::string rack = str(h, "rack", where);
        if (!racks.count(rack)) throw Error(where + ": rack \"" + rack + "\" is not in \"racks\"");
        const std::int64_t gpus = integerOr(h, "gpus", 8, where), nics = integerOr(h, "nics", gpus, where);
        if (gpus < 0 || gpus > 1024 || nics < 0 || nics > 1024) throw Error(where + ": gpus and nics must be 0..1024");
        const std::int32_t index = b.host(str(h, "name", where), racks[rack], static_cast<int>(gpus), static_cast<int>(nics));
        if (auto ids = h.find("pci_bus_ids"); ids != h.end()) {
            if (!ids->is_array()) throw Error(where + ": pci_bus_ids must be a list of strings");
            std::vector<std::string> list;
            for (const auto& id : *ids) list.push_back(id.is_string() ? id.get<std::string>() : std::string());
            b.setPciBusIds(index, list);
        }
    }
    for (std::size_t i = 0; i < array("switches").size(); ++i) {
        const nlohmann::json& s = array("switches")[i];
        const std::string where = path + ": switches[" + std::to_string(i) + "]";
        const SwitchTier tier = tierFrom(str(s, "tier", where), where);
        std::int32_t rack = -1;
        if (tier == SwitchTier::Rack) {
            const std::string r = str(s, "rack", where);
            if (!racks.count(r)) throw Error(where + ": rack \"" + r + "\" is not in \"racks\"");
            rack = racks[r];
        }
        b.addSwitch(str(s, "name", where), tier, tier == SwitchTier::Aggregation ? -1 : zoneNamed(s, where), rack);
    }
    // Link ends: a switch name, or "HOST/nicN".
    auto end = [&](const std::string& name, const std::string& where) {
        if (auto sw = b.findSwitch(name)) return TopologyBuilder::switchEnd(*sw);
        const std::size_t slash = name.rfind("/nic");
        if (slash != std::string::npos) {
            if (auto h = b.findHost(name.substr(0, slash))) {
                try {
                    return TopologyBuilder::nicEnd(*h, std::stoi(name.substr(slash + 4)));
                } catch (const std::exception&) {
                }
            }
        }
        throw Error(where + ": \"" + name + "\" is neither a switch nor HOST/nicN of a listed host");
    };
    for (std::size_t i = 0; i < array("links").size(); ++i) {
        const nlohmann::json& l = array("links")[i];
        const std::string where = path + ": links[" + std::to_string(i) + "]";
        b.link(end(str(l, "lower", where), where), end(str(l, "upper", where), where));
    }
    Topology t = [&] {
        try {
            return b.build();
        } catch (const Error& e) {
            throw Error(path + ": " + e.what());
        }
    }();
    ctx.report.count("hosts", static_cast<std::int64_t>(t.hosts.size()));
    ctx.report.count("switches", static_cast<std::int64_t>(t.switches.size()));
    ctx.report.count("links", static_cast<std::int64_t>(t.links.size()));
    setImportedTopology(std::move(t), path, ctx);
}

}  // namespace faultline
