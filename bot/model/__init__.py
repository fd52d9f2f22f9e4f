"""The model: data-parallel throughput from devices, per-device throughput and scaling efficiency, a series of
measurements and its forecast. Pure: no Slack, no locale."""
