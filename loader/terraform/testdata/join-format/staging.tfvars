# Not loaded automatically (only with -var-file).
brokers = 9
