package org.sparkmc.spark.smc;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.catalog.SmcModelCatalog;
import org.sparkmc.core.model.ModelParameters;
import org.sparkmc.core.smc.MissingObservations;
import org.sparkmc.core.smc.ObservationCsv;
import org.sparkmc.core.smc.ResamplingScheme;
import org.sparkmc.core.smc.SmcModel;
import org.sparkmc.core.smc.SmcOptions;
import org.sparkmc.core.smc.WeightCollapseException;
import org.sparkmc.spark.SparkSetup;
import org.sparkmc.spark.cli.CatalogHelp;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.cli.JobCommand;
import org.sparkmc.spark.cli.OutputOptions;
import org.sparkmc.spark.cli.Require;
import org.sparkmc.spark.cli.ResumeOptions;
import org.sparkmc.spark.cli.SyncViaOption;
import org.sparkmc.spark.io.AtomicOutput;
import org.sparkmc.spark.io.LineageCheckpoints;
import org.sparkmc.spark.io.Fingerprint;
import org.sparkmc.spark.io.UserPaths;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code sparkmc smc}: a particle filter whose particles are partitioned across Spark executors. */
@Command(name = "smc", mixinStandardHelpOptions = true, sortOptions = false, resourceBundle = CatalogHelp.BUNDLE,
        description = {"Runs a particle filter (SMC) over a series of observations with the particles partitioned "
            + "across Spark executors; the answer is bit-identical to one machine's for the same seed, particles and "
            + "block size, whatever the number of partitions.",
            "Options may come from a config file (--conf, HOCON, keys = option names without dashes); the command "
            + "line overrides it. Exit codes: 0 done, 2 bad input (also a corrupt checkpoint, or one from other "
            + "settings or data), " + ExitCode.HELP_JVM_ENDS + ", 1 anything else (including a weight collapse, "
            + "or weights that become NaN or +∞)."})
public final class SmcCommand extends JobCommand {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SmcCommand.class);

    /** Help from {@link CatalogHelp}. */
    @Option(names = "--model", paramLabel = "NAME", defaultValue = "local-level", descriptionKey = "smc.model")
    private String model;

    @Option(names = "--param", paramLabel = "KEY=VALUE",
            description = "A model parameter; a list in brackets as in the config file (e.g. 'F=[[1, 1], [0, 1]]'). "
                + "Overrides the config file's model-params block. Repeatable.")
    private Map<String, String> params = new LinkedHashMap<>();

    @Option(names = "--data", paramLabel = "PATH",
            description = "Observations: a CSV file, or a directory of CSV batch files read in name order "
                + "(through Hadoop's FileSystem).")
    private String data;

    @Option(names = "--time-column", paramLabel = "NAME",
            description = "The data's time column. Default: a column named t or time, if any.")
    private String timeColumn;

    @Option(names = "--columns", paramLabel = "A,B",
            description = "The observation columns, comma-separated. Default: every column but the time column.")
    private String columns;

    @Option(names = "--missing", paramLabel = "POLICY", defaultValue = "fail",
            description = "A missing observation (NA, NaN, empty): fail (exit 2 naming file and line) or skip (move "
                + "the particles without weighting). Default: ${DEFAULT-VALUE}.")
    private String missing;

    @Option(names = "--follow", fallbackValue = "true",
            description = "Online mode: keep reading new batch files from the --data directory "
            + "as they appear, until a file named _END appears (or --idle-timeout passes).")
    private boolean follow;

    @Option(names = "--poll-seconds", paramLabel = "S", defaultValue = "1",
            description = "With --follow: how often to look for new batch files. Default: ${DEFAULT-VALUE}.")
    private double pollSeconds;

    @Option(names = "--idle-timeout", paramLabel = "S", defaultValue = "0",
            description = "With --follow: end the stream after this many seconds without a new file (0: wait for "
                + "_END). Default: ${DEFAULT-VALUE}.")
    private double idleTimeout;

    @Option(names = "--filter", paramLabel = "NAME", defaultValue = "bootstrap",
            description = "bootstrap (propose from the model) or guided (locally optimal proposal; linear-Gaussian "
                + "models). Default: ${DEFAULT-VALUE}.")
    private String filter;

    @Option(names = "--particles", paramLabel = "N", defaultValue = "10000",
            description = "Number of particles. Default: ${DEFAULT-VALUE}.")
    private int particles;

    @Option(names = "--block-size", paramLabel = "N", defaultValue = "4096",
            description = "Particles per block, the unit of random streams; part of the result's contract with the "
                + "seed. Default: ${DEFAULT-VALUE}.")
    private int blockSize;

    @Option(names = "--resampling", paramLabel = "SCHEME", defaultValue = "systematic",
            description = "systematic, stratified, multinomial or residual. Default: ${DEFAULT-VALUE}.")
    private String resampling;

    @Option(names = "--ess-threshold", paramLabel = "TAU", defaultValue = "0.5",
            description = "Resample after a step whose ESS < TAU·N (0: never, plain SIS). Default: ${DEFAULT-VALUE}.")
    private double essThreshold;

    @Option(names = "--partitions", paramLabel = "N", defaultValue = "0",
            description = "Spark partitions, each owning whole blocks (does not change any number). Default: "
                + "min(blocks, Spark's default parallelism).")
    private int partitions;

    @Mixin
    private SyncViaOption syncVia;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "20261122",
            description = "Root seed: every block's stream derives from it. Default: ${DEFAULT-VALUE}.")
    private long seed;

    @Mixin
    private ResumeOptions checkpoint;

    @Option(names = "--checkpoint-every", paramLabel = "N|auto", defaultValue = "auto",
            description = "Steps between checkpoints, or auto: a save once the steps since the last have taken "
                + "30 s, or 19 times as long as that save took if longer, so that saves after the first take about 5%% "
                + "of the run at most (a save ends the stage that relays the steps). Default: ${DEFAULT-VALUE}.")
    private String checkpointEvery;

    @Option(names = "--lineage-every", paramLabel = "STEPS", defaultValue = "25",
            description = "Cut the particle RDD's lineage (a Spark RDD checkpoint, not a resumable one; formerly "
                + "--checkpoint-interval) every this many steps. Default: ${DEFAULT-VALUE}.")
    private int lineageEvery;

    @Option(names = "--lineage-dir", paramLabel = "DIR",
            description = "Write those lineage cuts as reliable RDD checkpoints here (formerly --checkpoint-dir), so "
                + "a lost executor is recomputed; default: local checkpoints in executor storage, which a lost "
                + "executor takes with it (the job then fails).")
    private String lineageDir;

    /** The old name of --lineage-every: accepted only to say so (picocli would suggest the resumable options). */
    @Option(names = "--checkpoint-interval", hidden = true, paramLabel = "STEPS")
    private String oldLineageEvery;

    /** The old name of --lineage-dir, likewise. */
    @Option(names = "--checkpoint-dir", hidden = true, paramLabel = "DIR")
    private String oldLineageDir;

    @Mixin
    private OutputOptions outputOptions;

    @Override
    @SuppressWarnings("try") // the checkpoint lease is held for the run, not used in it
    public Integer call() {
        configFile.checkKeys(spec, Set.of(MODEL_PARAMS));
        renamed("--checkpoint-interval", oldLineageEvery, "--lineage-every");
        renamed("--checkpoint-dir", oldLineageDir, "--lineage-dir");
        outputOptions.requireOut();
        // Validate everything before Spark starts; the partition count is settled once Spark is up.
        checkPartitions(partitions);
        ModelParameters parameters = modelParameters();
        named("--filter", () -> SmcModelCatalog.checkFilter(filter)); // each led by its option (a config's line)
        named("--model", () -> SmcModelCatalog.checkName(model));
        SmcModel smcModel = SmcModelCatalog.create(model, filter, parameters);
        checkModelParamsRead(model, parameters, params);
        MissingObservations missingPolicy = named("--missing", () -> MissingObservations.parse(missing));
        Require.atLeast(blockSize, 1, "--block-size");
        Require.inRange(essThreshold, 0, 1, "--ess-threshold");
        SmcOptions options = new SmcOptions(named("--resampling", () -> ResamplingScheme.parse(resampling)),
                essThreshold, blockSize, missingPolicy);
        // each particle's state and log weight, at the least
        outputOptions.refuseWorkBeyondTheLocalHeap(partitions,
                (long) particles * (smcModel.stateDimension() + 1) * Double.BYTES,
                "--particles " + particles + ": the particles' states and weights");
        SmcConfig config = new SmcConfig(smcModel, particles, options, Math.max(partitions, 1), seed,
                lineageEvery, lineageDir, syncVia.value());
        SmcJob.Checkpointing checkpointing = new SmcJob.Checkpointing(checkpoint.dir(),
                checkpoint.cadence(checkpointEvery),
                checkpoint.resume(), Fingerprint.of(config, new Sources(model, filter,
                        Fingerprint.sha256(parameters.resolved()), timeColumn, columns)));
        ObservationCsv.Options csv = ObservationCsv.Options.defaults().withMissing(missingPolicy);
        if (timeColumn != null && !timeColumn.isBlank()) {
            csv = csv.withTimeColumn(timeColumn.trim());
        }
        if (columns != null && !columns.isBlank()) {
            List<String> named = Arrays.stream(columns.split(",")).map(String::trim).toList();
            for (int i = 0; i < named.size(); i++) { // the output's columns must differ: it failed as Spark wrote them
                if (named.indexOf(named.get(i)) < i) {
                    throw new InvalidInputException("--columns names '" + named.get(i) + "' twice; name each "
                            + "observation column once");
                }
            }
            csv = csv.withValueColumns(named);
        }
        if (!follow) {
            warnOfNoEffect(List.of("--poll-seconds", "--idle-timeout"), "without --follow");
        }
        ObservationFeed feed = openFeed(csv, smcModel.model().observationDimension());

        UserPaths.directoryOrAbsent("--lineage-dir", lineageDir, SparkSetup.hadoopConfiguration());
        try (LineageCheckpoints.Directory lineage = LineageCheckpoints.directory(lineageDir,
                SparkSetup.hadoopConfiguration());
                AtomicOutput output = outputOptions.open(runPaths().input("--data", data)
                .apart("--checkpoint", checkpoint.dir()).apart("--lineage-dir", lineageDir));
                ResumeOptions.Claim claim = checkpoint.claim()) {
            if (checkpoint.resume()) { // a foreign, corrupt or unreadable checkpoint is refused before Spark starts
                List<StepRow> consumed = new SmcCheckpoint(checkpoint.dir(), SparkSetup.hadoopConfiguration())
                        .checkBeforeSpark(checkpointing.fingerprint());
                if (!follow) { // and so is other data, read to the checkpoint's step in a feed of its own
                    FeedSteps.checkReplayBeforeSpark(openFeed(csv, smcModel.model().observationDimension()),
                            consumed, checkpoint.dir());
                }
            }
            SparkSession spark = outputOptions.session("sparkmc smc");
            JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            if (partitions <= 0) {
                config = config.withPartitions(Math.max(1, Math.min(config.blocks(), sc.defaultParallelism())));
            }
            SmcResult result = new SmcJob(sc, config, checkpointing).run(feed);
            warnOfLittleEvidence(result, config.particles());
            SmcOutput.write(spark, output, config, result, new SmcOutput.Given(parametersUsed(parameters, params,
                    Set.of()), timeColumn == null || timeColumn.isBlank() ? null : timeColumn.trim()));
            output.commit();
            spec.commandLine().getOut().printf("smc: log p̂(y) = %s over %d steps with %d particles on %d "
                    + "partition%s (%d resampling steps, %.1f s); outputs in %s%n", logLikelihood(result),
                    result.steps(), config.particles(), config.partitions(), config.partitions() == 1 ? "" : "s",
                    result.resamplings(), result.seconds(), output.target());
            return ExitCode.OK;
        } catch (WeightCollapseException e) {
            // Not bad input in the scheduler's sense: the run itself failed at a time step.
            spec.commandLine().getErr().println("sparkmc smc failed: " + e.getMessage());
            return ExitCode.FAILURE;
        }
    }

    /** The observations of --data, read as the options say; each call a feed of its own from the first file. */
    private ObservationFeed openFeed(ObservationCsv.Options csv, int dimension) {
        return ObservationFeed.open(data, csv, new ObservationFeed.Follow(follow, pollSeconds, idleTimeout), dimension,
                SparkSetup.hadoopConfiguration());
    }

    /** log p̂ with four decimals, or in scientific notation when that would take more than a dozen digits. */
    private static String logLikelihood(SmcResult result) {
        double v = result.logLikelihood();
        return String.format(Locale.ROOT, Math.abs(v) < 1e9 ? "%.4f" : "%.6e", v);
    }

    /**
     * Warns when no observation was observed (every one missing under --missing skip), or when the weights sat on
     * about one particle at most observed steps: every particle's likelihood was tiny beside one's (an observation
     * noise far too small for the data, say), so log p̂ and the filtering means rest on single particles and cannot
     * be trusted, though no weight collapsed to zero.
     */
    private static void warnOfLittleEvidence(SmcResult result, int particles) {
        List<StepRow> observed = result.rows().stream().filter(r -> r.summary().observed()).toList();
        if (observed.isEmpty()) {
            LOG.warn("smc: every one of the {} observations was missing (--missing skip): the particles only "
                    + "moved, so the filter is the model's prior and log p̂ = 0 is the likelihood of no data",
                    result.steps());
            return;
        }
        long single = observed.stream().filter(r -> r.summary().ess() < 1.5).count();
        if (particles > 1 && 2 * single > observed.size()) {
            LOG.warn(String.format(Locale.ROOT, "smc: the filter degenerated: at %d of %d observed steps the "
                    + "weights' ESS was about 1 of %d particles, so log p̂ and the filtering means rest on single "
                    + "particles; check the model's observation noise against the data, or use more particles",
                    single, observed.size(), particles));
        }
    }

    /** Fails as bad input when a renamed option was given, naming its new name (also for config-file keys). */
    private static void renamed(String old, String value, String now) {
        if (value != null) {
            throw new InvalidInputException(old + " was renamed " + now + " (config key " + now.substring(2)
                    + "): it cuts the particle RDD's lineage; --checkpoint and --checkpoint-every are the resumable "
                    + "checkpoints, a different thing");
        }
    }

    /**
     * What the run's model and observations are made from, beside its {@link SmcConfig} in its checkpoint
     * {@link Fingerprint} (the observations themselves are checked step by step as a resumed run replays them).
     *
     * @param model the model's name
     * @param filter bootstrap or guided
     * @param resolvedParamsSha256 {@link Fingerprint#sha256} of the values of the model's parameters, defaults
     *     included ({@link ModelParameters#resolved}): a parameter given at its default value is no other setting.
     *     (It was {@code paramsSha256}, of the parameters as given; a checkpoint with that key is refused as written
     *     by an earlier sparkmc, {@link org.sparkmc.spark.io.CheckpointStates}.)
     * @param timeColumn the data's time column as given (null: found by name)
     * @param columns the observation columns as given (null: every column but the time column)
     */
    public record Sources(String model, String filter, String resolvedParamsSha256, String timeColumn,
            String columns) {
    }

    private ModelParameters modelParameters() {
        return new ModelParameters("model '" + model + "'", modelParams(params), modelParamOrigins(params));
    }

    /** The option names, for tests of the help text. */
    static List<String> optionNames() {
        return List.of("--conf", "--model", "--param", "--data", "--time-column", "--columns", "--missing", "--follow",
                "--poll-seconds", "--idle-timeout", "--filter", "--particles", "--block-size", "--resampling",
                "--ess-threshold", "--partitions", "--sync-via", "--seed", "--checkpoint", "--checkpoint-every",
                "--resume", "--lineage-every", "--lineage-dir", "--out", "--overwrite", "--master");
    }
}
