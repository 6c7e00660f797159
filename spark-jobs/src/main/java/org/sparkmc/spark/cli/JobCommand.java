package org.sparkmc.spark.cli;

/** A job's command: it receives the configuration file named by {@code --conf} before it runs. */
public interface JobCommand {
    void useConfigFile(ConfigFile configFile);
}
