resource "aws_msk_configuration" "from_template" {
  name           = "from-template"
  kafka_versions = ["3.9.x"]
  server_properties = templatefile("${path.module}/server.properties.tpl", {
    replication_factor = 3
    min_isr            = 2
  })
}

resource "aws_msk_configuration" "outside" {
  name              = "outside"
  kafka_versions    = ["3.9.x"]
  server_properties = templatefile("../shared/server.properties.tpl", {})
}
