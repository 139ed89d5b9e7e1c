variable "bucket" {
  default = "logs"
}

resource "aws_s3_bucket" "logs" {
  bucket = var.bucket
}
