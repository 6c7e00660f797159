# The JVM flags Spark's own launcher adds on Java 17 (org.apache.spark.launcher.JavaModuleOptions); sourced by
# submit/sparkmc and submit/bench. The same list is in the parent POM (spark.jvm.flags) for Surefire, except
# --add-modules=jdk.incubator.vector: only MLlib's vectorised BLAS uses that module, sparkmc's jobs call no BLAS,
# and with it the JVM prints "WARNING: Using incubator modules" at every start of every command.
SPARK_JAVA_FLAGS=(-XX:+IgnoreUnrecognizedVMOptions
  --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.invoke=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED
  --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED --add-opens=java.base/jdk.internal.ref=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/sun.nio.cs=ALL-UNNAMED
  --add-opens=java.base/sun.security.action=ALL-UNNAMED --add-opens=java.base/sun.util.calendar=ALL-UNNAMED
  --add-opens=java.security.jgss/sun.security.krb5=ALL-UNNAMED -Djdk.reflect.useDirectMethodHandle=false
  -Dio.netty.tryReflectionSetAccessible=true -Dio.netty.allocator.type=pooled
  -Dio.netty.handler.ssl.defaultEndpointVerificationAlgorithm=NONE --enable-native-access=ALL-UNNAMED)
