brokers = 2
