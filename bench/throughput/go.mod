module vibe-analyzer/bench/throughput

go 1.22
