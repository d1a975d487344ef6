var.a[0] +
  local.b
