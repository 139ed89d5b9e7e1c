brokers = = 3
