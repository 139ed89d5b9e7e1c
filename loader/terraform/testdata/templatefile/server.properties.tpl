default.replication.factor=${replication_factor}
min.insync.replicas=${min_isr}
%{ for t in ["a", "b"] ~}
# topic ${t}
%{ endfor ~}
