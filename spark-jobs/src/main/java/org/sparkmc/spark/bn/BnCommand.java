package org.sparkmc.spark.bn;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.bayesnet.BayesNet;
import org.sparkmc.core.bayesnet.Evidence;
import org.sparkmc.spark.SparkSetup;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.cli.JobCommand;
import org.sparkmc.spark.diagnose.SummaryFiles;
import org.sparkmc.spark.io.AtomicOutput;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sparkmc bn}: posterior marginals on a Bayesian network by sampling spread over Spark executors. */
@Command(name = "bn", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Posterior marginals P(query | evidence) on a discrete Bayesian network (BIF): likelihood "
            + "weighting or rejection sampling with sample blocks spread over Spark executors, Gibbs chains spread "
            + "over executors with R-hat, or exact variable elimination on the driver.",
            "Options may come from a config file (--conf, HOCON, keys = option names without dashes); the command "
            + "line overrides it. Exit codes: 0 done, 2 bad input, 3 Gibbs not converged with "
            + "--require-convergence, " + ExitCode.HELP_JVM_ENDS + ", 1 anything else."})
public final class BnCommand extends JobCommand {
    @Option(names = "--network", paramLabel = "PATH",
            description = "The network in BIF (e.g. data/alarm/alarm.bif), read through Hadoop's FileSystem.")
    private String network;

    @Option(names = "--evidence", paramLabel = "VAR=STATE,...", defaultValue = "",
            description = "Observed states, e.g. HISTORY=TRUE,CVP=LOW. Default: none.")
    private String evidence;

    @Option(names = "--query", paramLabel = "VAR", split = ",",
            description = "Query variable(s); repeatable or comma-separated.")
    private List<String> query = new ArrayList<>();

    @Option(names = "--method", paramLabel = "NAME", defaultValue = "lw",
            description = "lw (likelihood weighting), rejection, gibbs or exact (variable elimination only). "
                + "Default: ${DEFAULT-VALUE}.")
    private String method;

    @Option(names = "--exact", paramLabel = "WHEN", arity = "0..1", fallbackValue = "always", defaultValue = "auto",
            description = "Also compute the exact answer by variable elimination on the driver: auto (when cheap), "
                + "always (--exact alone) or never. Default: ${DEFAULT-VALUE}.")
    private String exact;

    @Option(names = "--samples", paramLabel = "N", defaultValue = "1000000",
            description = "Samples in all (lw, rejection). Default: ${DEFAULT-VALUE}.")
    private long samples;

    @Option(names = "--block-size", paramLabel = "N", defaultValue = "100000",
            description = "Samples per block; each block has its own random stream (lw, rejection). "
                + "Default: ${DEFAULT-VALUE}.")
    private long blockSize;

    @Option(names = "--chains", paramLabel = "N", defaultValue = "4",
            description = "Gibbs chains (at least 2). Default: ${DEFAULT-VALUE}.")
    private int chains;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "1000",
            description = "Gibbs warm-up sweeps per chain. Default: ${DEFAULT-VALUE}.")
    private int warmup;

    @Option(names = "--draws", paramLabel = "N", defaultValue = "10000",
            description = "Gibbs kept sweeps per chain. Default: ${DEFAULT-VALUE}.")
    private int draws;

    @Option(names = "--round-size", paramLabel = "N", defaultValue = "2000",
            description = "Gibbs sweeps per chain per round (a progress line and R-hat after each). "
                + "Default: ${DEFAULT-VALUE}.")
    private int roundSize;

    @Option(names = "--max-rhat", paramLabel = "X", defaultValue = "1.01",
            description = "Gibbs: an indicator converged when its R-hat is below this… Default: ${DEFAULT-VALUE}.")
    private double maxRhat;

    @Option(names = "--min-ess", paramLabel = "X", defaultValue = "400",
            description = "…and its bulk and tail ESS reach this. Default: ${DEFAULT-VALUE}.")
    private double minEss;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "20261122",
            description = "Root seed: every block's and chain's stream derives from it. Default: ${DEFAULT-VALUE}.")
    private long seed;

    @Option(names = "--partitions", paramLabel = "N", defaultValue = "0",
            description = "Spark partitions (does not change any result). Default: Spark's default parallelism; "
                + "for Gibbs at most one per chain, also when given.")
    private int partitions;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Output directory (file://, hdfs://, s3a://). Without it the answer is only printed.")
    private String out;

    @Option(names = "--overwrite", fallbackValue = "true", description = "Replace an existing output directory.")
    private boolean overwrite;

    @Option(names = "--require-convergence", fallbackValue = "true",
            description = "Gibbs: exit with code 3 when an indicator fails R-hat or ESS (outputs are still written).")
    private boolean requireConvergence;

    @Option(names = "--master", paramLabel = "URL",
            description = "Spark master; given, it replaces spark-submit's. Default: spark-submit's, else local[*].")
    private String master;

    @Override
    public Integer call() {
        configFile.checkKeys(spec, Set.of());
        if (network == null || network.isBlank()) {
            throw new InvalidInputException("--network PATH is required (a BIF file, e.g. data/alarm/alarm.bif)");
        }
        BnMethod m = BnMethod.parse(method);
        warnOfOptionsTheMethodDoesNotUse(m);
        if (out == null || out.isBlank()) {
            warnOfNoEffect(List.of("--overwrite"), "without --out (nothing is written)");
        }
        ExactMode exactMode = ExactMode.parse(exact);
        // Validate every count before reading anything, then the network, names and evidence before Spark starts.
        BayesNet net = NetworkReader.read(network, SparkSetup.hadoopConfiguration());
        Evidence e = NetworkNames.evidence(net, evidence);
        int[] q = NetworkNames.query(net, query); // an empty entry ('A,') is refused before (SplitEntries)
        for (int v : q) { // its marginal is 1 at the observed state: Gibbs gave it R-hat NaN and "NOT converged"
            if (e.isObserved(v)) {
                throw new InvalidInputException("--query names " + net.variable(v) + ", which --evidence fixes ("
                        + net.variable(v) + "=" + net.state(v, e.state(v)) + "); its posterior is that state with "
                        + "probability 1: leave it out of --query");
            }
        }
        BnConfig config = new BnConfig(network, net, e, q, m, exactMode, samples, blockSize, chains, warmup, draws,
                roundSize, seed, partitions, maxRhat, minEss);
        ExactAnswer exactAnswer = ExactAnswer.of(config);
        List<GibbsRound> gibbsStart = m == BnMethod.GIBBS ? gibbsStart(config, exactAnswer) : List.of();

        try (AtomicOutput output = out == null || out.isBlank() ? null : AtomicOutput.open(out, overwrite,
                SparkSetup.hadoopConfiguration(), runPaths().input("--network", network))) {
            SparkSession spark = SparkSetup.session("sparkmc bn", master);
            JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            int parts = partitions > 0 ? partitions : sc.defaultParallelism();
            if (m == BnMethod.GIBBS) { // as in chains: partitions beyond one per chain would only be empty tasks
                parts = Math.min(chains, parts);
            }
            BnResult result = BnJob.run(sc, config, exactAnswer, gibbsStart, parts);
            if (output != null) {
                BnOutput.write(output, config, result);
                output.commit();
            }
            print(spec.commandLine().getOut(), config, result, output);
            return m == BnMethod.GIBBS && !result.converged() && requireConvergence ? ExitCode.NOT_CONVERGED
                    : ExitCode.OK;
        }
    }

    /** The Gibbs chains' starts; evidence too rare for them is named with its exact probability when known. */
    private static List<GibbsRound> gibbsStart(BnConfig config, ExactAnswer exact) {
        try {
            return GibbsJob.initialStates(config);
        } catch (InvalidInputException e) {
            if (exact == null || !(exact.evidenceProbability() > 0)) {
                throw e;
            }
            throw new InvalidInputException(String.format(Locale.ROOT, "no state consistent with the evidence %s was "
                    + "found to start the Gibbs chains from (likelihood-weighting draws): its exact probability is "
                    + "%.3g, too rare for that start; --method exact gives its answer, and --method lw with enough "
                    + "--samples an estimate", config.evidenceText(), exact.evidenceProbability()), e);
        }
    }

    private static void print(PrintWriter w, BnConfig config, BnResult result, AtomicOutput output) {
        String evidenceText = config.evidenceText().isEmpty() ? "no evidence" : "evidence " + config.evidenceText();
        if (config.method() == BnMethod.EXACT) {
            w.printf(Locale.ROOT, "bn: variable elimination on %s, %s (P(e) = %.6g)%n", config.networkPath(),
                    evidenceText, result.exactEvidenceProbability());
        } else {
            w.printf(Locale.ROOT, "bn: %s on %s, %s: %,d %s in %.1f s, ESS %s%s%n", config.method().description(),
                    config.networkPath(), evidenceText, result.samples(),
                    config.method() == BnMethod.GIBBS ? "kept draws" : "samples", result.seconds(),
                    SummaryFiles.formatted(result.ess(), "%.4g"),
                    config.method() == BnMethod.GIBBS ? (result.converged() ? ", converged" : ", NOT converged")
                        : String.format(Locale.ROOT, ", P(e) ≈ %.4g ± %.2g", result.evidenceProbability(),
                            result.evidenceProbabilitySe()));
        }
        boolean undefined = false;
        boolean constant = false;
        for (QueryResult q : result.queries()) {
            w.printf(config.evidenceText().isEmpty() ? "P(%s)%n" : "P(%s | evidence)%n", q.variable());
            for (int s = 0; s < q.states().length; s++) {
                StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %-12s %.6f", q.states()[s],
                        q.probabilities()[s]));
                if (config.method() != BnMethod.EXACT) {
                    line.append(" ± ").append(String.format(Locale.ROOT, "%-8s", q.standardError(s, "%.6f")));
                    undefined |= Double.isNaN(q.standardErrors()[s]) && config.method() != BnMethod.GIBBS;
                    constant |= config.method() == BnMethod.GIBBS
                            && (q.probabilities()[s] == 0 || q.probabilities()[s] == 1);
                    if (q.exact() != null) {
                        line.append(String.format(Locale.ROOT, "   exact %.6f (%s SE)", q.exact()[s],
                                SummaryFiles.formatted(q.errorInSe(s), "%+.1f")));
                    }
                    if (q.rhat() != null) {
                        line.append("   R-hat ").append(SummaryFiles.formatted(q.rhat()[s], "%.4f"));
                    }
                }
                w.println(line);
            }
        }
        if (undefined) {
            w.printf(Locale.ROOT, "NA: the state was in every weighted sample or in none, so its SE is undefined; with "
                    + "ESS %.4g its probability is within about 3/ESS = %.2g of the estimate (95%%, rule of three)%n",
                    result.ess(), 3 / result.ess());
        }
        if (constant) {
            w.println("NA: the state was in every kept draw of every chain or in none, so its SE (and R-hat) is "
                    + "undefined; Gibbs chains that never leave or never reach a state cannot say how likely it is");
        }
        w.println(output == null ? "no --out: nothing written" : "outputs in " + output.target());
        w.flush();
    }

    /**
     * Options on the command line that only another method reads were taken without a word: said, as smc says of
     * --poll-seconds. A config file's are not: one file may hold the settings of several methods.
     */
    private void warnOfOptionsTheMethodDoesNotUse(BnMethod m) {
        List<String> sampling = List.of("--samples", "--block-size");
        List<String> gibbs = List.of("--chains", "--warmup", "--draws", "--round-size", "--max-rhat", "--min-ess",
                "--require-convergence");
        List<String> unused = new ArrayList<>();
        if (m != BnMethod.LW && m != BnMethod.REJECTION) {
            unused.addAll(sampling);
        }
        if (m != BnMethod.GIBBS) {
            unused.addAll(gibbs);
        }
        if (m == BnMethod.EXACT) {
            unused.addAll(List.of("--seed", "--partitions"));
        }
        warnOfNoEffect(unused, "with --method " + m.option());
    }
}
