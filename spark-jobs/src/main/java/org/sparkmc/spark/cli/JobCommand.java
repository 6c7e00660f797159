package org.sparkmc.spark.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.sparkmc.core.InvalidInputException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * A job's command: its {@code --conf} option, its picocli spec, and the configuration file {@link Main} loads from
 * {@code --conf} and hands over before the job runs (it also supplies the options' defaults).
 */
public abstract class JobCommand implements Callable<Integer> {
    /** The config-file block of model parameters. */
    protected static final String MODEL_PARAMS = "model-params";
    @Spec
    protected CommandSpec spec;
    protected ConfigFile configFile = ConfigFile.none();

    @Option(names = "--conf", paramLabel = "FILE", description = "Config file (HOCON) supplying option defaults.")
    private String conf;

    public final void useConfigFile(ConfigFile file) {
        this.configFile = file;
    }

    /**
     * Checks a {@code --partitions} value: 0 (the default, settled once Spark is up) or a positive count.
     *
     * @throws InvalidInputException if it is negative
     */
    public static void checkPartitions(int partitions) {
        if (partitions < 0) {
            throw new InvalidInputException("partitions must be ≥ 0 (0: Spark's default parallelism), is "
                    + partitions);
        }
    }

    /**
     * A model's parameters from the config file's {@code model-params} block, overridden by {@code --param KEY=VALUE}
     * options (a value that parses as a number is one, otherwise text).
     */
    protected Map<String, Object> modelParams(Map<String, String> overrides) {
        Map<String, Object> values = new LinkedHashMap<>(configFile.block(MODEL_PARAMS));
        overrides.forEach((k, v) -> values.put(k, numberOrText(v)));
        return values;
    }

    private static Object numberOrText(String v) {
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            return v;
        }
    }
}
