package org.sparkmc.spark.chains;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.catalog.KernelCatalog;
import org.sparkmc.core.catalog.ModelCatalog;
import org.sparkmc.core.mcmc.ChainRound;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.Kernel;
import org.sparkmc.core.mcmc.KernelSettings;
import org.sparkmc.core.model.ModelParameters;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.SparkSetup;
import org.sparkmc.spark.cli.CatalogHelp;
import org.sparkmc.spark.cli.Counted;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.cli.JobCommand;
import org.sparkmc.spark.cli.OutputOptions;
import org.sparkmc.spark.cli.Require;
import org.sparkmc.spark.cli.ResumeOptions;
import org.sparkmc.spark.cli.SyncViaOption;
import org.sparkmc.spark.io.AtomicOutput;
import org.sparkmc.spark.io.Fingerprint;
import org.sparkmc.spark.io.ModelDataReader;
import org.sparkmc.spark.run.CheckpointCadence;
import org.sparkmc.spark.sync.JavaFrames;
import org.sparkmc.spark.sync.SyncVia;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code sparkmc chains}: many MCMC chains of one target on Spark, run in rounds until R-hat and ESS pass. */
@Command(name = "chains", mixinStandardHelpOptions = true, sortOptions = false, resourceBundle = CatalogHelp.BUNDLE,
        description = {"Runs many independent MCMC chains of one target spread over Spark executors, in rounds; "
            + "after each round the driver computes R-hat and ESS of every parameter and stops when all pass.",
            "Options may come from a config file (--conf, HOCON, keys = option names without dashes); the command "
            + "line overrides it. Exit codes: 0 done, 2 bad input, 3 not converged with --require-convergence, "
            + ExitCode.HELP_JVM_ENDS + ", 1 anything else."})
public final class ChainsCommand extends JobCommand {

    /** Help from {@link CatalogHelp}. */
    @Option(names = "--model", paramLabel = "NAME", defaultValue = "bimodal", descriptionKey = "chains.model")
    private String model;

    @Option(names = "--data", paramLabel = "PATH",
            description = "Model data file (JSON object), read through Hadoop's FileSystem.")
    private String data;

    @Option(names = "--param", paramLabel = "KEY=VALUE",
            description = "A model parameter; a list in brackets as in the config file (e.g. 'y=[28, 8, -3]'). "
                + "Overrides the config file's model-params block. Repeatable.")
    private Map<String, String> params = new LinkedHashMap<>();

    /** Help from {@link CatalogHelp}. */
    @Option(names = "--kernel", paramLabel = "NAME", defaultValue = "rwm", descriptionKey = "chains.kernel")
    private String kernel;

    @Option(names = "--scale", paramLabel = "X", defaultValue = "1",
            description = "Initial proposal scale (sd of each coordinate's step; slice: initial width). "
                + "Default: ${DEFAULT-VALUE}.")
    private double scale;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "1",
            description = "Threads per chain for parallel kernels (colour-gibbs); does not change any draw. "
                + "Default: ${DEFAULT-VALUE}.")
    private int threads;

    @Option(names = "--adapt", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Adapt the proposal scale during warm-up (frozen after). Default: ${DEFAULT-VALUE}.")
    private boolean adapt;

    @Option(names = "--target-accept", paramLabel = "A",
            description = "Acceptance rate adaptation aims at. Default: 0.44 in one dimension, 0.234 otherwise; "
                + "nuts: 0.8 (Stan's delta).")
    private Double targetAccept;

    @Option(names = "--chains", paramLabel = "N", defaultValue = "8",
            description = "Number of chains (at least 2). Default: ${DEFAULT-VALUE}.")
    private int chains;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "1000",
            description = "Warm-up iterations per chain (draws discarded). Default: ${DEFAULT-VALUE}.")
    private int warmup;

    @Option(names = "--round-size", paramLabel = "N", defaultValue = "1000",
            description = "Iterations per chain per round; diagnostics after each round. Default: ${DEFAULT-VALUE}.")
    private int roundSize;

    @Option(names = "--max-rounds", paramLabel = "N", defaultValue = "20",
            description = "Stop after this many sampling rounds even if not converged. Default: ${DEFAULT-VALUE}.")
    private int maxRounds;

    @Option(names = "--min-ess", paramLabel = "X", defaultValue = "400",
            description = "Stop when every parameter's bulk and tail ESS reach this. Default: ${DEFAULT-VALUE}.")
    private double minEss;

    @Option(names = "--max-rhat", paramLabel = "X", defaultValue = "1.01",
            description = "…and every rank-normalised split R-hat is below this. Default: ${DEFAULT-VALUE}.")
    private double maxRhat;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "20261122",
            description = "Root seed: every chain's stream derives from it. Default: ${DEFAULT-VALUE}.")
    private long seed;

    @Option(names = "--partitions", paramLabel = "N", defaultValue = "0",
            description = "Spark partitions for the chains, at most one per chain (does not change any draw). Default: "
                + "min(chains, Spark's default parallelism).")
    private int partitions;

    @Option(names = "--driver-draws-limit", paramLabel = "N|auto", defaultValue = "auto",
            description = "Diagnostics run on the driver while chains × draws × parameters ≤ N (8·N bytes), by "
                + "parameter on the executors beyond (same numbers). Default: auto, an eighth of the driver's heap "
                + "(16.8 million draws for a 1 GiB driver).")
    private String driverDrawsLimit;

    @Option(names = "--cmdstan-csv", fallbackValue = "true",
            description = "Also write cmdstan/chain-<k>.csv, one CmdStan-style CSV per chain.")
    private boolean cmdstanCsv;

    @Option(names = "--report-parameters", paramLabel = "N", defaultValue = "20",
            description = "report.html plots at most N parameters (failing ones first, then by R-hat). "
                + "Default: ${DEFAULT-VALUE}.")
    private int reportParameters;

    @Mixin
    private SyncViaOption syncVia;

    @Mixin
    private ResumeOptions checkpoint;

    @Option(names = "--checkpoint-every", paramLabel = "N|auto", defaultValue = "1",
            description = "Rounds between checkpoints (each round's draws are saved as it ends, so a save adds "
                + "little), or auto: a save once the rounds since the last have taken 30 s, or 19 times as long as "
                + "that save took if longer. Default: ${DEFAULT-VALUE}.")
    private String checkpointEvery;

    @Mixin
    private OutputOptions outputOptions;

    @Option(names = "--require-convergence", fallbackValue = "true",
            description = "Exit with code 3 when the run stops without converging (outputs are still written).")
    private boolean requireConvergence;

    @Override
    @SuppressWarnings("try") // the checkpoint lease is held for the run, not used in it
    public Integer call() {
        configFile.checkKeys(spec, Set.of(MODEL_PARAMS));
        outputOptions.requireOut();
        ModelDataReader.ModelData modelData = modelData();
        Map<String, Object> dataFields = modelData == null ? null : modelData.fields();
        ModelParameters parameters = modelParameters(modelData);
        named("--model", () -> ModelCatalog.checkName(model)); // led by the option (a config file's line)
        Target target = ModelCatalog.create(model, parameters);
        checkModelParamsRead(model, parameters, params);
        checkDataRead(parameters, dataFields);
        // The kernel's settings are checked here, by option, before the kernel is built from them.
        Require.positive(scale, "--scale");
        if (targetAccept != null) { // else the kernel's default
            Require.inOpenRange(targetAccept, 0, 1, "--target-accept");
        }
        double accept = targetAccept != null ? targetAccept : Double.NaN; // NaN: the kernel's default
        Require.atLeast(threads, 1, "--threads");
        Require.atLeast(warmup, 0, "--warmup");
        Kernel<?> kernelInstance = named("--kernel", () -> KernelCatalog.create(kernel,
                new KernelSettings(scale, adapt, accept, threads, warmup), target));
        // Validate every count before Spark starts; the partition count is settled once Spark is up.
        checkPartitions(partitions);
        ChainsConfig checked = new ChainsConfig(model, target, Fingerprint.sha256(parameters.asMap()), kernel,
                kernelInstance, scale, adapt, accept, chains, warmup, roundSize, maxRounds, minEss, maxRhat, seed,
                Math.max(partitions, 1), driverDraws(), syncVia.value());
        CheckpointCadence cadence = checkpoint.cadence(checkpointEvery);
        checkRelayable(checked);
        checkTheDriverHoldsTheChains(checked);
        Require.atLeast(reportParameters, 1, "--report-parameters");
        try (AtomicOutput output = outputOptions.open(runPaths().input("--data", data)
                .apart("--checkpoint", checkpoint.dir()));
                ResumeOptions.Claim claim = checkpoint.claim()) {
            ChainsCheckpoint store = checkpoint.dir() == null ? null
                    : new ChainsCheckpoint(checkpoint.dir(), SparkSetup.hadoopConfiguration(), kernelInstance);
            if (checkpoint.resume()) { // a foreign, corrupt or unreadable checkpoint is refused before Spark starts
                ChainsCheckpoint.Saved saved = store.loadForResume(checked.fingerprint(), checked.warmupRounds() + 1);
                int sampled = saved == null ? 0 : saved.round() - checked.warmupRounds();
                if (sampled > checked.maxRounds()) { // it committed them all, more than asked for, without a word
                    throw new InvalidInputException("checkpoint " + checkpoint.dir() + " holds " + sampled
                            + " sampling rounds: --max-rounds must be at least " + sampled + " to resume it, is "
                            + checked.maxRounds() + " (a resumed run keeps every round it has)");
                }
            }
            SparkSession spark = outputOptions.session("sparkmc chains");
            JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            // More partitions than chains would only be empty (each one a task and a file of draws.parquet).
            int parts = Math.min(chains, partitions > 0 ? partitions : sc.defaultParallelism());
            ChainsConfig config = checked.withPartitions(parts);
            ChainsJob job = new ChainsJob(sc, config, new ChainsJob.Checkpointing(checkpoint.dir(), cadence,
                    checkpoint.resume(), config.fingerprint()), store);
            ChainsResult result = job.run();
            ChainsOutput.write(spark, output, job, config, result,
                    new ChainsOutput.Options(cmdstanCsv, reportParameters, parametersUsed(parameters, params,
                            dataFields == null ? Set.of() : dataFields.keySet()), data));
            output.commit();
            spec.commandLine().getOut().printf("chains: %s after %s (%d draws per chain, %.1f s); "
                    + "outputs in %s%n", result.converged() ? "converged" : "NOT converged",
                    Counted.of(result.samplingRounds(), "sampling round"),
                    result.drawsPerChain(), result.seconds(), output.target());
            return !result.converged() && requireConvergence ? ExitCode.NOT_CONVERGED : ExitCode.OK;
        }
    }

    /**
     * Refuses more chains than the driver can hold: it keeps every chain's state between rounds (2^31 chains kept it
     * building states until its heap ran out), and copies of the states go to the tasks and come back, in the same
     * heap in local mode. One chain's start, serialized, gives a chain's size; the states may take an eighth of the
     * driver's heap, as its draws may (--driver-draws-limit). Measured at -Xmx512m, bimodal: 94,254 chains ran,
     * twice as many ran out of memory.
     */
    private static void checkTheDriverHoldsTheChains(ChainsConfig config) {
        ChainState one = ChainRound.start(1, config.target(), config.kernel(), new RandomStreams(config.seed()));
        int bytes = JavaFrames.encode(one).length;
        long heap = Runtime.getRuntime().maxMemory();
        long most = Math.max(2, heap / 8 / bytes);
        if (config.chains() > most) {
            throw new InvalidInputException(String.format(Locale.ROOT, "--chains %d: the driver keeps every chain's "
                    + "state, about %d bytes each here (%.1f GB in all), and copies of them go to the tasks and back; "
                    + "its heap of %.1f GB holds no more than %d chains: run fewer, or give the driver more memory "
                    + "(spark-submit --driver-memory, or -Xmx)", config.chains(), bytes,
                    (double) bytes * config.chains() / 1e9, heap / 1e9, most));
        }
    }

    /**
     * {@code --sync-via relay} runs every round in one stage, which a run whose rounds are checkpointed, or whose draws
     * may outgrow the driver's limit, cannot: refuse it before Spark starts (auto runs those with a job per round).
     */
    private void checkRelayable(ChainsConfig config) {
        if (config.syncVia() != SyncVia.RELAY) {
            return;
        }
        if (checkpoint.dir() != null) {
            throw new InvalidInputException("--sync-via relay runs every round in one Spark stage and cannot save "
                    + "each round's draws to --checkpoint; drop one of them, or use --sync-via auto");
        }
        if (!config.driverHoldsEveryDraw()) {
            long perRow = (long) config.maxRounds() * config.roundSize() * config.chains();
            throw new InvalidInputException("--sync-via relay keeps every draw on the driver, but the run may make "
                    + perRow + " draws of each of " + config.summarisedRows() + " rows (the parameters and lp__), "
                    + "more than --driver-draws-limit " + config.driverDrawsLimit() + " in all; raise the limit, "
                    + "lower --max-rounds, or use --sync-via auto");
        }
    }

    /** The fields of the --data file and their lines, or null without one. */
    private ModelDataReader.ModelData modelData() {
        return data != null && !data.isBlank()
                ? ModelDataReader.readWithLines(data, SparkSetup.hadoopConfiguration()) : null;
    }

    /** The data file's fields overridden by the model parameters, each named by where it was given. */
    private ModelParameters modelParameters(ModelDataReader.ModelData modelData) {
        Map<String, Object> values = new LinkedHashMap<>();
        Map<String, String> origins = new LinkedHashMap<>();
        StringBuilder source = new StringBuilder("model '" + model + "'");
        if (modelData != null) {
            values.putAll(modelData.fields());
            origins.putAll(modelData.lines());
            source.append(" with data ").append(data);
        }
        values.putAll(modelParams(params));
        origins.putAll(modelParamOrigins(params));
        return new ModelParameters(source.toString(), values, origins);
    }

    /**
     * A data file none of whose fields the model read was meant for another model: refuse it. Fields it did not read
     * among others it did (a misspelt name, say) are warned of; CmdStan ignores such fields without a word.
     */
    private void checkDataRead(ModelParameters parameters, Map<String, Object> dataFields) {
        if (dataFields == null || dataFields.isEmpty()) {
            return;
        }
        if (!java.util.Collections.disjoint(dataFields.keySet(), parameters.consulted())) {
            Set<String> unread = new java.util.TreeSet<>(dataFields.keySet());
            unread.removeAll(parameters.consulted());
            if (!unread.isEmpty()) {
                org.slf4j.LoggerFactory.getLogger(getClass()).warn("data file {}: model '{}' does not read the "
                        + "fields {} (it reads {}); they have no effect", data, model, unread,
                        new java.util.TreeSet<>(parameters.consulted()));
            }
            return;
        }
        Set<String> takes = parameters.consulted();
        throw new InvalidInputException("model '" + model + "' reads none of the fields "
                + new java.util.TreeSet<>(dataFields.keySet()) + " of data file " + data + " (" + (takes.isEmpty()
                ? "it takes no parameters or data" : "it reads " + takes) + "); name the model the data are for "
                + "with --model");
    }

    /** {@code --driver-draws-limit}: a whole number, or auto ({@link ChainsConfig#defaultDriverDraws()}). */
    private long driverDraws() {
        if (driverDrawsLimit.equals("auto")) {
            return ChainsConfig.defaultDriverDraws();
        }
        try {
            return Long.parseLong(driverDrawsLimit.trim());
        } catch (NumberFormatException e) {
            throw new InvalidInputException("--driver-draws-limit must be a whole number or auto, is '"
                    + driverDrawsLimit + "'");
        }
    }
}
