package org.sparkmc.spark.cli;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.sparkmc.core.DecimalNumbers;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.model.ModelParameters;
import org.sparkmc.spark.io.RunPaths;
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
     * The run's paths other than its output, so far its config file and the files it includes: the job adds its
     * inputs and directories.
     */
    protected RunPaths runPaths() {
        RunPaths paths = RunPaths.none().input(ConfigFile.OPTION, configFile.location());
        configFile.included().forEach(file -> paths.input(ConfigFile.OPTION + " (an included file)", file));
        return paths;
    }

    /** Whether {@code option} was given, on the command line or by the config file, rather than left at its default. */
    protected boolean given(String option) {
        return givenOnTheCommandLine(option) || configFile.origin(spec.findOption(option)) != null;
    }

    /**
     * Whether {@code option} was given on the command line. Warnings of options the run does not use ask this, not
     * {@link #given}: a config file may hold the settings of the modes it is not run in (one file for several
     * {@code --method}s).
     */
    protected boolean givenOnTheCommandLine(String option) {
        return spec.commandLine().getParseResult().hasMatchedOption(option);
    }

    /**
     * Warns, as "OPTION has no effect {@code why}", of each of {@code options} given on the command line: the run
     * does not read them, and would otherwise take them without a word. Said, not refused; a config file's are not
     * warned of ({@link #givenOnTheCommandLine}).
     */
    protected void warnOfNoEffect(List<String> options, String why) {
        for (String option : options) {
            if (givenOnTheCommandLine(option)) {
                org.slf4j.LoggerFactory.getLogger(getClass()).warn("{} has no effect {}", option, why);
            }
        }
    }

    /**
     * Checks a {@code --partitions} value: 0 (the default, settled once Spark is up) or a positive count.
     *
     * @throws InvalidInputException if it is negative
     */
    public static void checkPartitions(int partitions) {
        Require.atLeast(partitions, 0, "--partitions", "(0: Spark's default parallelism)");
    }

    /**
     * What a parser of core, which names no option, makes of an option's value; its refusal is led by the option's
     * name ({@code --resampling: unknown resampling scheme 'wheel'; …}), so that a value the config file gave is
     * refused with the file and line ({@link ConfigFile#originOf}). Only for a parser of this one value: a refusal of
     * something built from several options would be blamed on this one.
     */
    protected static <T> T named(String option, Supplier<T> parse) {
        try {
            return parse.get();
        } catch (InvalidInputException e) {
            if (e.getMessage() != null && e.getMessage().startsWith(option + " ")) {
                throw e; // led by the option already ("--kernel class 'x' is not on the classpath")
            }
            throw new InvalidInputException(option + ": " + e.getMessage(), e);
        }
    }

    /**
     * A model's parameters from the config file's {@code model-params} block, overridden by {@code --param KEY=VALUE}
     * options (a value that parses as a number is one, a value in brackets a list as HOCON reads it in the config
     * file, e.g. {@code --param 'F=[[1, 1], [0, 1]]'}, otherwise text).
     *
     * @throws InvalidInputException for a {@code --param} key given twice, a value in brackets that is no HOCON list,
     *     or one that holds two lists side by side on one line ({@code [[1, 1] [0, 1]]}, which HOCON would join into
     *     one) or a word after a list ({@code [1] x}, which HOCON would drop), naming the option
     */
    protected Map<String, Object> modelParams(Map<String, String> overrides) {
        refuseAParamGivenTwice();
        Map<String, Object> values = new LinkedHashMap<>(configFile.block(MODEL_PARAMS));
        overrides.forEach((k, v) -> values.put(k, v.strip().startsWith("[") ? list(k, v) : numberOrText(v)));
        return values;
    }

    /**
     * Refuses {@code --param k=1 --param k=2}: picocli keeps the last without a word, where a repeated single-valued
     * option is an error.
     */
    private void refuseAParamGivenTwice() {
        if (spec == null) { // a command built without picocli (a unit test of its parsing) has no command line
            return;
        }
        var param = spec.commandLine().getParseResult().matchedOption("--param");
        if (param == null) {
            return;
        }
        Map<String, String> seen = new LinkedHashMap<>();
        for (String given : param.originalStringValues()) {
            String key = given.contains("=") ? given.substring(0, given.indexOf('=')) : given;
            String earlier = seen.put(key, given);
            if (earlier != null) {
                throw new InvalidInputException("--param " + earlier + " and --param " + given + " both set '" + key
                        + "'; give each model parameter once");
            }
        }
    }

    /**
     * The model's parameters as summary.json records them: what the model used ({@link ModelParameters#resolved},
     * defaults included, numbers as doubles), but the fields that only a data file gave (the file's path stands for
     * them), so that the run can be given again.
     *
     * @param fromData the data file's field names (empty without one)
     */
    protected Map<String, Object> parametersUsed(ModelParameters built, Map<String, String> overrides,
            Set<String> fromData) {
        Map<String, Object> used = new LinkedHashMap<>(built.resolved());
        Set<String> given = modelParams(overrides).keySet();
        used.keySet().removeIf(name -> fromData.contains(name) && !given.contains(name));
        return used;
    }

    /**
     * Where each of {@link #modelParams}'s values was given, for the model's messages: the config file's
     * {@code file:line}, or the {@code --param} option that overrides it.
     */
    protected Map<String, String> modelParamOrigins(Map<String, String> overrides) {
        Map<String, String> origins = new LinkedHashMap<>();
        configFile.block(MODEL_PARAMS).keySet().forEach(k -> origins.put(k, configFile.describeBlockKey(MODEL_PARAMS,
                k)));
        overrides.forEach((k, v) -> origins.put(k, "--param " + k + "=" + v));
        return origins;
    }

    /** {@code --param key=value} whose value is a list, read as the config file's lists are. */
    private static Object list(String key, String value) {
        String expected = "--param " + key + "=" + value + ": a value in brackets must be a list as in the config "
                + "file, e.g. [1, 2] or [[1, 0], [0, 1]]";
        TextAfterLists.checkValue("--param " + key + "=" + value, value);
        try {
            // Under a key nobody types: "[1], G=2" holds a second key, and "[1], v=[3]" would replace a plain one.
            String only = "\"sparkmc --param\"";
            Config parsed = ConfigFactory.parseString(only + " = " + value);
            if (!parsed.root().keySet().equals(Set.of("sparkmc --param"))) {
                throw new InvalidInputException(expected + ", and nothing after it");
            }
            return parsed.getList(only).unwrapped();
        } catch (ConfigException e) {
            throw new InvalidInputException(expected + " (" + e.getMessage() + ")");
        }
    }

    /**
     * Fails when a model parameter given in the config file's {@code model-params} block or by {@code --param} was
     * not asked for by the model built from {@code built} (a misspelt or unused key would otherwise be ignored
     * silently). Call it after the model is built: models read all their parameters then.
     *
     * @throws InvalidInputException naming each such key, where it was given, and the keys the model took
     */
    protected void checkModelParamsRead(String model, ModelParameters built, Map<String, String> overrides) {
        Map<String, String> origins = modelParamOrigins(overrides);
        Set<String> given = new TreeSet<>(origins.keySet());
        given.removeAll(built.consulted());
        if (given.isEmpty()) {
            return;
        }
        List<String> named = new ArrayList<>();
        for (String key : given) {
            named.add("'" + key + "' (" + origins.get(key) + ")");
        }
        Set<String> takes = built.consulted();
        // "with these settings": a model may leave a parameter unread when another one makes it moot (gmm reads n
        // only without points).
        throw new InvalidInputException("model '" + model + "' does not read " + (given.size() == 1 ? "parameter "
                : "parameters ") + String.join(", ", named) + " with these settings; " + (takes.isEmpty()
                ? "it reads no parameters" : "the parameters it reads are " + takes));
    }

    private static Object numberOrText(String v) {
        try {
            return DecimalNumbers.parse(v);
        } catch (NumberFormatException e) {
            return v;
        }
    }
}
