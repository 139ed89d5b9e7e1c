# auto.tfvars win over terraform.tfvars
brokers = 3
