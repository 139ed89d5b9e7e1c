brokers = 4
extra = {
  "num.partitions" = 12
}
