package org.sparkmc.spark.consensus;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.UserClasses;
import org.sparkmc.core.consensus.Glm;
import org.sparkmc.core.consensus.RowLikelihood;
import org.sparkmc.core.consensus.ShardCheck;
import org.sparkmc.core.consensus.ShardSampler;
import org.sparkmc.spark.SparkSetup;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.cli.JobCommand;
import org.sparkmc.spark.cli.OutputOptions;
import org.sparkmc.spark.cli.Require;
import org.sparkmc.spark.io.AtomicOutput;
import org.sparkmc.spark.io.StorageFailure;
import org.sparkmc.spark.io.UserPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code sparkmc consensus}: consensus Monte Carlo of a GLM (or your row likelihood) over a table cut into shards. */
@Command(name = "consensus", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Consensus Monte Carlo: cuts a table's rows into S shards, samples each shard's sub-posterior "
            + "p(θ)^(1/S)·Π p(y_i | x_i, θ) with several chains on the executor that holds its rows, and combines "
            + "the shards' draws into draws of the full posterior on the driver. Rows never reach the driver.",
            "Exit codes: 0 done, 2 bad input (a missing column, a value that is not a number, a response outside "
            + "the model's support: the file, row and column are named), " + ExitCode.HELP_JVM_ENDS
            + ", 1 anything else."})
public final class ConsensusCommand extends JobCommand {
    static final String CLASS_PREFIX = "class:";

    @Option(names = "--data", paramLabel = "PATH",
            description = "The table: a Parquet file or directory, or a CSV file or directory with a header line, "
                + "through Hadoop's FileSystem (required).")
    private String data;

    @Option(names = "--format", paramLabel = "FORMAT",
            description = "parquet or csv. Default: from the name (.parquet, .csv, .csv.gz).")
    private String format;

    @Option(names = "--response", paramLabel = "COL", defaultValue = "y",
            description = "The response column. Default: ${DEFAULT-VALUE}.")
    private String response;

    @Option(names = "--features", paramLabel = "COL", split = ",",
            description = "The feature columns, in the order of the coefficients (an intercept is a column of 1s). "
                + "Default: every other numeric column (CSV: every other column).")
    private List<String> features = new ArrayList<>();

    @Option(names = "--family", paramLabel = "NAME",
            description = "Built-in GLM: logistic (y 0 or 1), poisson (counts), gaussian (linear; σ sampled). "
                + "Default: logistic unless --model is given.")
    private String family;

    @Option(names = "--model", paramLabel = "class:NAME",
            description = "Your org.sparkmc.core.consensus.RowLikelihood instead of a family: a public class with a "
                + "constructor taking the feature names (List<String>) or none.")
    private String model;

    @Option(names = "--prior-sd", paramLabel = "S", defaultValue = "10",
            description = "Prior sd of every coefficient (independent N(0, S²)). Default: ${DEFAULT-VALUE}.")
    private double priorSd;

    @Option(names = "--sigma-prior-scale", paramLabel = "C", defaultValue = "10",
            description = "gaussian: σ's half-normal(0, C²) prior scale. Default: ${DEFAULT-VALUE}.")
    private double sigmaPriorScale;

    @Option(names = "--shards", paramLabel = "S", defaultValue = "4",
            description = "Number of shards; each is one Spark task holding about n/S rows. Default: ${DEFAULT-VALUE}.")
    private int shards;

    @Option(names = "--chains", paramLabel = "N", defaultValue = "4",
            description = "Chains per shard (at least 2, for R-hat within a shard). Default: ${DEFAULT-VALUE}.")
    private int chains;

    @Option(names = "--kernel", paramLabel = "NAME", defaultValue = "independence",
            description = "Each chain's kernel: independence (a Student-t proposal from the shard's Laplace "
                + "approximation, which needs no adaptation), laplace-rwm, am, slice (also rwm, slice-doubling). "
                + "Default: ${DEFAULT-VALUE}.")
    private String kernel;

    @Option(names = "--scale", paramLabel = "X",
            description = "The kernel's initial scale. Default: 1 for laplace-rwm and independence, else the "
                + "geometric mean of the shard's Laplace sds.")
    private Double scale;

    @Option(names = "--warmup", paramLabel = "N",
            description = "Warm-up iterations per chain (adapting; discarded). Default: "
                + ShardSampler.INDEPENDENCE_WARMUP + " for independence, which only has to leave its overdispersed "
                + "start, else " + ShardSampler.ADAPTIVE_WARMUP + ".")
    private Integer warmup;

    @Option(names = "--iterations", paramLabel = "N", defaultValue = "500",
            description = "Kept iterations per chain; each is one pass over the shard's rows. Default: "
                + "${DEFAULT-VALUE} (with independence, a bulk ESS of about 1,000 per shard in 20 dimensions).")
    private int iterations;

    @Option(names = "--combiner", paramLabel = "NAME", defaultValue = "consensus",
            description = "consensus (Scott et al.'s weighted average), semiparametric or nonparametric (Neiswanger "
                + "et al.'s density products, for non-Gaussian sub-posteriors). Default: ${DEFAULT-VALUE}.")
    private String combiner;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "20261122",
            description = "Root seed: shards, chains and combiner streams derive from it. Default: ${DEFAULT-VALUE}.")
    private long seed;

    @Mixin
    private OutputOptions outputOptions;

    @Override
    public Integer call() {
        configFile.checkKeys(spec, Set.of());
        outputOptions.requireOut();
        if (data == null || data.isBlank()) {
            throw new InvalidInputException("--data PATH is required (or 'data' in the config file)");
        }
        if (features.stream().anyMatch(String::isBlank)) { // "features = []" was "no column ''"
            throw new InvalidInputException("--features names an empty column ('" + String.join(",", features)
                    + "'); give column names separated by commas, or leave --features out for every other column");
        }
        String fmt = checkedFormat(data, format, SparkSetup.hadoopConfiguration());
        ShardSampler.Settings sampling = sampling();
        if ((long) shards * chains * iterations > Integer.MAX_VALUE) {
            throw new InvalidInputException("shards × chains × iterations must be ≤ " + Integer.MAX_VALUE + ", is "
                    + (long) shards * chains * iterations);
        }
        // Everything the table does not decide is checked now, before Spark starts.
        likelihood(features.isEmpty() ? List.of("x") : features, features.isEmpty());
        new ConsensusConfig(data, modelName(), null, priorSd, shards, sampling, combiner, seed);
        // So is what the table's headers or footers decide: its columns, its rows.
        Path tablePath = UserPaths.path("--data", data); // Spark and Hadoop get it as a path: "run:2/t.csv" is no URI
        TableCheck.check(SparkSetup.hadoopConfiguration(), tablePath, fmt, response, features, shards);
        try (AtomicOutput output = outputOptions.open(runPaths().input("--data", data))) {
            SparkSession spark = outputOptions.session("sparkmc consensus");
            GlmTable table = GlmTable.open(spark, tablePath.toString(), fmt, response, features);
            ConsensusConfig config = new ConsensusConfig(data, modelName(), likelihood(table.features(), false),
                    priorSd, shards, sampling, combiner, seed);
            ConsensusResult result = new ConsensusJob(spark, config, table).run();
            ConsensusOutput.write(spark, output, config, result, new ConsensusOutput.Given(fmt, response,
                    table.features(), model == null && modelName().equals("gaussian") ? sigmaPriorScale : null));
            output.commit();
            spec.commandLine().getOut().printf("consensus: %d shards combined with %s (%.1f s)%s; outputs in %s%n",
                    shards, combiner, result.seconds(), warnings(result), output.target());
            return ExitCode.OK;
        }
    }

    /**
     * How each shard samples, its options checked first by name (core's {@link ShardSampler.Settings} names none, so a
     * value from the config file would be refused without its file and line).
     */
    private ShardSampler.Settings sampling() {
        Require.oneOf(kernel, List.copyOf(new TreeSet<>(ShardSampler.KERNELS)), "--kernel");
        if (scale != null) { // else the kernel's automatic scale
            Require.positive(scale, "--scale");
        }
        Require.atLeast(chains, 2, "--chains", "for R-hat within a shard");
        if (warmup != null) {
            Require.atLeast(warmup, 0, "--warmup");
        }
        Require.atLeast(iterations, 2, "--iterations");
        return new ShardSampler.Settings(kernel, scale != null ? scale : Double.NaN, chains,
                warmup != null ? warmup : ShardSampler.defaultWarmup(kernel), iterations);
    }

    /** "; WARNING: …" for each check that warns, else nothing. */
    private static String warnings(ConsensusResult result) {
        StringBuilder b = new StringBuilder();
        for (ShardCheck check : List.of(result.disagreement(), result.skew())) {
            if (check.warn()) {
                b.append("; WARNING: ").append(check.message());
            }
        }
        return b.toString();
    }

    private String modelName() {
        return model != null ? model : family != null ? family : "logistic";
    }

    /**
     * The model for these feature columns.
     *
     * @param probe true when the columns are not known yet (only the name is checked)
     */
    private RowLikelihood likelihood(List<String> featureNames, boolean probe) {
        if (model != null && family != null) {
            throw new InvalidInputException("give --family or --model, not both");
        }
        if (model == null) {
            String name = family != null ? Require.oneOf(family, Glm.FAMILIES, "--family") : "logistic";
            if (name.equals("gaussian")) {
                Require.positive(sigmaPriorScale, "--sigma-prior-scale");
            } else if (given("--sigma-prior-scale")) { // it was ignored without a word
                throw new InvalidInputException("--sigma-prior-scale is the prior scale of the gaussian family's σ; "
                        + "the " + name + " family has no σ: drop the option");
            }
            return Glm.of(name, featureNames, sigmaPriorScale);
        }
        if (!model.startsWith(CLASS_PREFIX)) {
            throw new InvalidInputException("--model must be class:com.example.MyLikelihood (a RowLikelihood), is '"
                    + model + "'; the built-in models are chosen with --family");
        }
        if (given("--sigma-prior-scale")) { // a user's likelihood sets its own priors
            throw new InvalidInputException("--sigma-prior-scale is the prior scale of the gaussian family's σ; a "
                    + "--model class sets its own priors: drop the option");
        }
        String className = model.substring(CLASS_PREFIX.length()).trim();
        Class<? extends RowLikelihood> type = UserClasses.load("model", className, RowLikelihood.class,
                " (add its jar with --classpath)");
        if (probe) {
            return null;
        }
        RowLikelihood built;
        try {
            try {
                built = type.getConstructor(List.class).newInstance(List.copyOf(featureNames));
            } catch (NoSuchMethodException e) {
                built = type.getConstructor().newInstance();
            }
        } catch (NoSuchMethodException e) {
            throw new InvalidInputException("model class '" + className + "' needs a public constructor taking the "
                    + "feature names (List<String>) or none");
        } catch (InvocationTargetException e) {
            throw new InvalidInputException("model class '" + className + "' failed to construct: " + e.getCause(),
                    e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new InvalidInputException("model class '" + className + "' cannot be instantiated: " + e, e);
        }
        if (built.features() != featureNames.size()) {
            throw new InvalidInputException("model class '" + className + "' takes " + built.features()
                    + " features, the table gives " + featureNames.size() + " " + featureNames);
        }
        return built;
    }

    /**
     * Checks the path and settles the format, before Spark starts (here, not in {@link GlmTable}, whose Spark
     * functions a refusal must not load).
     *
     * @param format "parquet", "csv", or null to take it from the name
     */
    private static String checkedFormat(String location, String format, Configuration hadoop) {
        Path path = UserPaths.path("--data", location);
        try {
            FileSystem fs = path.getFileSystem(hadoop);
            if (StorageFailure.statusIfAny(fs, path) == null) {
                throw new InvalidInputException("--data " + location + ": no such file or directory");
            }
        } catch (IOException e) {
            throw new InvalidInputException("--data " + location + ": cannot be read: " + StorageFailure.reason(e), e);
        }
        if (format != null) {
            Require.oneOf(format, List.of("parquet", "csv"), "--format");
            return format;
        }
        String name = path.getName().toLowerCase(Locale.ROOT);
        if (name.endsWith(".parquet")) {
            return "parquet";
        }
        if (name.endsWith(".csv") || name.endsWith(".csv.gz")) {
            return "csv";
        }
        String inside = tableInside(path, hadoop);
        throw new InvalidInputException("--data " + location + ": cannot tell the format from the name (.parquet or"
                + " .csv); give --format parquet or --format csv" + (inside == null ? "" : ", or --data "
                + new Path(path, inside) + ", the table inside it (generate-glm writes its table there)"));
    }

    /** The name of a table ({@code ….parquet} or {@code ….csv}) directly inside directory {@code dir}, or null. */
    private static String tableInside(Path dir, Configuration hadoop) {
        try {
            FileSystem fs = dir.getFileSystem(hadoop);
            if (!fs.getFileStatus(dir).isDirectory()) {
                return null;
            }
            for (FileStatus f : StorageFailure.list(fs, dir)) {
                String name = f.getPath().getName();
                if (name.endsWith(".parquet") || name.endsWith(".csv")) {
                    return name;
                }
            }
            return null;
        } catch (IOException e) { // only a hint: the read that follows names any failure
            return null;
        }
    }
}
