#pragma once
// How InfiniBand tools name the two ends of a cable: an adapter by its host and RDMA device
// ("a08-p1-dgx-04-c01 mlx5_5", infiniband-exporter's "node1.mlx5_0", "dgx01 HCA-6"), a switch
// by its node description ("MF0;A09-P1-IBLEAF-04-04:MQM9701/U1"). ibnetdiscover, ibqueryerrors
// and the exporters built on them share these names, so a port counter lands on the cable
// the topology drew.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace faultline {

struct HostAdapter {
    std::string host;
    std::int32_t nic = -1;  // NIC i serves GPU i of its host
};

// The host and NIC an adapter's description names: "HOST DEVN" is NIC N for any RDMA device
// (mlx5_N, mlx4_N, hfi1_N, ibpN), "HOST HCA-N" is NIC N-1 (host and device apart by a space,
// or by a '.' when there is none); a host name alone is its host's NIC 0; nullopt for a
// description that names no host (SHARP aggregation nodes, "Mellanox Technologies ...").
std::optional<HostAdapter> hostAdapter(std::string_view description);

// An RDMA device's NIC: "mlx5_5" -> 5, "hfi1_0" -> 0, "ibp3" -> 3 (node_exporter's `device`
// label); nullopt otherwise.
std::optional<std::int32_t> nicOfDevice(std::string_view device);

// A switch's name: its description up to the first ':', which names the unit without its
// model ("MF0;A10-P1-IBSPINE-02:MQM9701/U1" -> "MF0;A10-P1-IBSPINE-02").
std::string switchUnitName(std::string_view description);

}  // namespace faultline
