# Shared by submit/cluster/start and stop (sourced; needs $home, the cluster's Spark home).
# ours PID: true when PID is a live JVM started from this cluster's Spark home. A pid file outlives a crash or a
# reboot, and its number may since belong to another process, which must be left alone.
ours() {
  local cmd
  cmd=$(tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null) || return 1
  [[ $cmd == *"-cp $home/jars/"* ]]
}
