module "back" {
  source = "../kafka"
  name   = "loop"
}
