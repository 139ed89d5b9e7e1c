# The module's complete example, as every MSK module ships one.
module "msk" {
  source = "../.."

  number_of_broker_nodes = 2
  kafka_version          = "3.5.1"
  server_properties = {
    "default.replication.factor" = "2"
  }
  topics = {
    orders = 0
  }
}

module "missing" {
  source = "./modules/none"
}

module "self" {
  source = "./"
}

module "outside" {
  source = "../../../.."
}

module "registry" {
  source  = "example/kafka/aws"
  version = "1.0.0"
}
