#include "importers/kernel/kernel_log_line.h"

#include "importers/text/pci_bus_id.h"
#include "importers/text/text_parse.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace faultline {

namespace {


// dmesg --decode puts "facility:level : " before the time ("kern  :warn  : ").
std::string_view skipDecodePrefix(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size() && std::islower(static_cast<unsigned char>(s[i]))) ++i;
    if (i == 0 || i > 8) return s;
    while (i < s.size() && s[i] == ' ') ++i;
    if (i >= s.size() || s[i] != ':') return s;
    ++i;
    const std::size_t levelStart = i;
    while (i < s.size() && std::islower(static_cast<unsigned char>(s[i]))) ++i;
    if (i == levelStart) return s;
    while (i < s.size() && s[i] == ' ') ++i;
    if (i >= s.size() || s[i] != ':') return s;
    ++i;
    while (i < s.size() && s[i] == ' ') ++i;
    return s.substr(i);
}

// "host kernel: msg" after a journal timestamp.
std::optional<KernelLogLine> journalRest(std::string_view rest, KernelLogLine out) {
    rest = trim(rest);
    const std::size_t sp = rest.find(' ');
    if (sp == std::string_view::npos) return std::nullopt;
    const std::string_view host = rest.substr(0, sp);
    std::string_view after = rest.substr(sp + 1);
    if (!startsWith(after, "kernel:")) return std::nullopt;
    after.remove_prefix(7);
    // Some journals keep the kernel's own "[  227.99] " boot stamp inside the message.
    after = trim(after);
    if (!after.empty() && after.front() == '[') {
        const std::size_t close = after.find("] ");
        if (close != std::string_view::npos && close < 20) after.remove_prefix(close + 2);
    }
    out.host = host;
    out.message = after;
    return out;
}

std::optional<KernelLogLine> parseKmsg(std::string_view s) {
    // prio,seq,usec,flags[,...];message
    const std::size_t semi = s.find(';');
    if (semi == std::string_view::npos || semi > 64) return std::nullopt;
    std::vector<std::string_view> fields;
    splitBy(s.substr(0, semi), ",", fields);
    if (fields.size() < 4) return std::nullopt;
    const auto prio = parseInt(fields[0]);
    const auto seq = parseInt(fields[1]);
    const auto usec = parseInt(fields[2]);
    // Microseconds since boot: decades at most, as for "[  227.996636]" below.
    if (!prio || !seq || !usec || *usec < 0 || *usec > 1'000'000'000'000'000) return std::nullopt;
    KernelLogLine out;
    out.form = KernelLogForm::Kmsg;
    out.time = *usec * 1000;
    out.sinceBoot = true;
    out.message = s.substr(semi + 1);
    return out;
}

std::optional<KernelLogLine> parseBracketed(std::string_view s) {
    const std::size_t close = s.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    const std::string_view inside = trim(s.substr(1, close - 1));
    std::string_view message = s.substr(close + 1);
    if (!message.empty() && message.front() == ' ') message.remove_prefix(1);
    KernelLogLine out;
    out.message = message;
    // "[  227.996636]": seconds since boot, always with six decimals (printk's "%5lu.%06lu"),
    // which tells it from other bracketed numbers (ibnetdiscover's "[1]" port lines).
    if (!inside.empty() && isDigit(inside.front())) {
        const std::size_t dot = inside.find('.');
        if (dot == std::string_view::npos || inside.size() - dot - 1 != 6) return std::nullopt;
        const auto secs = parseInt(inside.substr(0, dot));
        if (!secs) return std::nullopt;
        std::int64_t frac = 0;
        if (dot != std::string_view::npos) {
            std::int64_t scale = 100'000'000;
            for (char c : inside.substr(dot + 1)) {
                if (!isDigit(c)) return std::nullopt;
                frac += (c - '0') * scale;
                scale /= 10;
            }
        }
        out.form = KernelLogForm::DmesgBoot;
        out.sinceBoot = true;
        if (*secs < 0 || *secs > 1'000'000'000) return std::nullopt;  // seconds since boot: decades at most
        out.time = *secs * 1'000'000'000 + frac;
        return out;
    }
    // "[Tue Jan 21 04:41:44 2025]": dmesg -T, in the local time of the host (taken as UTC).
    std::vector<std::string_view> parts;
    std::string_view rest = inside;
    while (!rest.empty()) {
        const std::size_t sp = rest.find(' ');
        if (sp != 0) parts.push_back(rest.substr(0, sp));
        if (sp == std::string_view::npos) break;
        rest.remove_prefix(sp + 1);
    }
    if (parts.size() != 5) return std::nullopt;
    const auto month = monthFromAbbrev(parts[1]);
    const auto day = parseInt(parts[2]);
    const auto clock = parseClock(parts[3]);
    const auto year = parseInt(parts[4]);
    if (!month || !day || !clock || !year || *day < 1 || *day > 31) return std::nullopt;
    out.form = KernelLogForm::DmesgCtime;
    out.time = epochFromCivil(*year, *month, static_cast<unsigned>(*day), *clock);
    return out;
}

std::optional<KernelLogLine> parseSyslog(std::string_view s, int year) {
    // "Jan 21 04:41:44[.283302] host kernel: msg"
    if (s.size() < 16) return std::nullopt;
    const auto month = monthFromAbbrev(s.substr(0, 3));
    if (!month || s[3] != ' ') return std::nullopt;
    std::size_t i = 4;
    while (i < s.size() && s[i] == ' ') ++i;
    const std::size_t dayStart = i;
    while (i < s.size() && isDigit(s[i])) ++i;
    const auto day = parseInt(s.substr(dayStart, i - dayStart));
    if (!day || *day < 1 || *day > 31 || i >= s.size() || s[i] != ' ') return std::nullopt;
    ++i;
    const auto clock = parseClock(s.substr(i));
    if (!clock) return std::nullopt;
    i += 8;
    std::int64_t frac = 0;
    if (i < s.size() && s[i] == '.') {
        std::int64_t scale = 100'000'000;
        for (++i; i < s.size() && isDigit(s[i]); ++i) {
            frac += (s[i] - '0') * scale;
            scale /= 10;
        }
    }
    KernelLogLine out;
    out.form = KernelLogForm::Journal;
    out.time = epochFromCivil(year, *month, static_cast<unsigned>(*day), *clock, frac);
    return journalRest(s.substr(i), out);
}

// A host name as syslog writes it before "kernel:": one word of letters, digits, '.', '-', '_'.
bool hostWord(std::string_view s) {
    if (s.empty() || s.size() > 253) return false;
    return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_'; });
}

// A kernel line with no time: "kernel: msg", "host kernel: msg", dmesg --decode's
// "kern  :warn  : msg" without the time, or the driver's bare "NVRM: ..." (dmesg -t).
std::optional<KernelLogLine> parseUndated(std::string_view line) {
    KernelLogLine out;
    out.form = KernelLogForm::Undated;
    if (startsWith(line, "kernel: ")) {
        out.message = trim(line.substr(8));
    } else if (const std::size_t at = line.find(" kernel: "); at != std::string_view::npos && hostWord(line.substr(0, at))) {
        out.host = line.substr(0, at);
        out.message = trim(line.substr(at + 9));
    } else if (const std::string_view body = skipDecodePrefix(line); body.data() != line.data() && startsWith(line, "kern ")) {
        out.message = trim(body);
    } else if (startsWith(line, "NVRM: ")) {
        out.message = trim(line);
    } else {
        return std::nullopt;
    }
    if (out.message.empty()) return std::nullopt;
    return out;
}

}  // namespace

std::optional<KernelLogLine> parseKernelLogLine(std::string_view line, int year) {
    if (line.empty()) return std::nullopt;
    if (isDigit(line.front())) {
        if (std::size_t used = 0; auto t = parseIsoTime(line, &used)) {
            KernelLogLine out;
            out.time = *t;
            const std::string_view rest = line.substr(used);
            if (auto j = journalRest(rest, out)) {
                j->form = KernelLogForm::JournalIso;
                return j;
            }
            out.form = KernelLogForm::DmesgIso;
            out.message = trim(rest);
            return out;
        }
        if (auto k = parseKmsg(line)) return k;
        return parseUndated(line);
    }
    if (auto j = parseSyslog(line, year)) return j;
    const std::string_view body = skipDecodePrefix(line);
    if (body.empty()) return std::nullopt;
    if (body.front() == '[') return parseBracketed(body);
    if (body.data() != line.data() && isDigit(body.front())) {
        std::size_t used = 0;
        if (auto t = parseIsoTime(body, &used)) {
            KernelLogLine out;
            out.form = KernelLogForm::DmesgIso;
            out.time = *t;
            out.message = trim(body.substr(used));
            return out;
        }
    }
    return parseUndated(line);
}

std::optional<XidMessage> parseXidMessage(std::string_view message) {
    const std::size_t at = message.find("NVRM: Xid (");
    if (at == std::string_view::npos) return std::nullopt;
    std::string_view rest = message.substr(at + 11);
    const std::size_t close = rest.find("):");
    if (close == std::string_view::npos) return std::nullopt;
    std::string_view bus = rest.substr(0, close);
    if (startsWith(bus, "PCI:")) bus.remove_prefix(4);
    rest = trim(rest.substr(close + 2));
    std::size_t n = 0;
    while (n < rest.size() && isDigit(rest[n])) ++n;
    const auto code = parseInt(rest.substr(0, n));
    if (!code || *code <= 0 || *code > 100000) return std::nullopt;
    XidMessage out;
    out.pciBusId = normalisePciBusId(bus);
    out.xid = static_cast<std::int32_t>(*code);
    rest.remove_prefix(n);
    if (!rest.empty() && rest.front() == ',') rest.remove_prefix(1);
    out.text = trim(rest);
    return out;
}

}  // namespace faultline
