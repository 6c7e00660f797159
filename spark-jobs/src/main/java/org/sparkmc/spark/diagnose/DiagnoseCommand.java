package org.sparkmc.spark.diagnose;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.diagnostics.FullParameterSummary;
import org.sparkmc.spark.SparkSetup;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.cli.JobCommand;
import org.sparkmc.spark.cli.OutputOptions;
import org.sparkmc.spark.cli.Require;
import org.sparkmc.spark.io.AtomicOutput;
import org.sparkmc.spark.io.RunPaths;
import org.sparkmc.spark.report.HtmlReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sparkmc diagnose}: convergence diagnostics of existing draws (Parquet, CmdStan CSV, plain CSV) computed
 * by parameter on the executors, written as summary.csv, summary.json and report.html.
 */
@Command(name = "diagnose", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Reads MCMC draws and writes posterior-style summaries (R-hat, bulk/tail ESS, MCSE, "
            + "quantiles) and report.html, computed by parameter on the executors without collecting the draws.",
            "Inputs: Parquet draws (columns chain, draw, parameters…), CmdStan CSV files (one chain per file, in "
            + "file-name order) or CSV files with columns chain,draw,<parameters…>; globs allowed.",
            "Exit codes: 0 done, 2 bad input, 3 some parameter fails the thresholds with --require-convergence, "
            + ExitCode.HELP_JVM_ENDS + ", 1 anything else."})
public final class DiagnoseCommand extends JobCommand {
    private static final Logger LOG = LoggerFactory.getLogger(DiagnoseCommand.class);

    @Parameters(paramLabel = "INPUT", arity = "0..*", description = "Draw files, directories or globs.")
    private List<String> inputs = new ArrayList<>();

    @Option(names = "--format", paramLabel = "F", defaultValue = "auto",
            description = "auto, parquet, cmdstan or csv. Default: ${DEFAULT-VALUE}.")
    private String format;

    @Option(names = "--max-rhat", paramLabel = "X", defaultValue = "1.01",
            description = "A parameter fails when its R-hat is at least this. Default: ${DEFAULT-VALUE}.")
    private double maxRhat;

    @Option(names = "--min-ess", paramLabel = "X", defaultValue = "400",
            description = "…or its bulk or tail ESS (over all chains) is below this: the chains job's rule. "
                + "Default: ${DEFAULT-VALUE}.")
    private double minEss;

    @Option(names = "--min-ess-per-chain", paramLabel = "X",
            description = "Instead of --min-ess: this times the number of chains.")
    private Double minEssPerChain;

    @Option(names = "--require-convergence", fallbackValue = "true",
            description = "Exit with code 3 when any parameter fails.")
    private boolean requireConvergence;

    @Option(names = "--report-parameters", paramLabel = "N", defaultValue = "20",
            description = "report.html plots at most N parameters (failing ones first, then by R-hat, "
                + "highest first). Default: ${DEFAULT-VALUE}.")
    private int reportParameters;

    @Mixin
    private OutputOptions outputOptions;

    @Override
    public Integer call() {
        configFile.checkKeys(spec, Set.of());
        outputOptions.requireOut();
        if (minEssPerChain != null && given("--min-ess")) { // from the command line or the config file
            throw new InvalidInputException("give --min-ess (over all chains) or --min-ess-per-chain, not both");
        }
        Require.above(maxRhat, 1, "--max-rhat");
        Require.atLeast(minEss, 0, "--min-ess");
        if (minEssPerChain != null) {
            Require.atLeast(minEssPerChain, 0, "--min-ess-per-chain");
        }
        Require.atLeast(reportParameters, 1, "--report-parameters");
        RunPaths paths = runPaths();
        inputs.forEach(in -> paths.input("input", in));
        try (AtomicOutput output = outputOptions.open(paths)) {
            // the inputs are found, and their format told, before Spark starts
            DrawsSource.Located located = DrawsSource.locate(inputs, format, SparkSetup.hadoopConfiguration());
            SparkSession spark = outputOptions.session("sparkmc diagnose");
            JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            long t0 = System.nanoTime();
            DrawsSource source = DrawsSource.load(spark, located);
            LOG.info("diagnose: {}", source.description());
            List<String> names = source.names();
            sc.setJobDescription("diagnose: summaries by parameter");
            List<ParameterResult> results = ByParameter.map(source.series(),
                    Math.max(1, Math.min(names.size(), 4 * sc.defaultParallelism())),
                    (p, d) -> ParameterResult.of(names.get(p), d));
            Thresholds thresholds = new Thresholds(maxRhat, minEssPerChain == null ? minEss
                    : minEssPerChain * source.chains());
            List<FullParameterSummary> summaries = results.stream().map(ParameterResult::summary).toList();
            Map<String, List<String>> failing = thresholds.failingOfFull(summaries);
            double seconds = (System.nanoTime() - t0) / 1e9;
            write(output, source, results, summaries, thresholds, failing, seconds);
            output.commit();
            printVerdict(spec.commandLine().getOut(), failing, summaries.size(), output.target().toString());
            return !failing.isEmpty() && requireConvergence ? ExitCode.NOT_CONVERGED : ExitCode.OK;
        }
    }

    private void write(AtomicOutput output, DrawsSource source, List<ParameterResult> results,
            List<FullParameterSummary> summaries, Thresholds thresholds, Map<String, List<String>> failing,
            double seconds) {
        Map<String, Object> top = new LinkedHashMap<>();
        top.put("job", "diagnose");
        top.put("inputs", inputs);
        top.put("format", source.format());
        top.put("chains", source.chains());
        top.put("draws_per_chain", source.drawsPerChain());
        top.put("converged", failing.isEmpty());
        top.put("max_rhat", thresholds.maxRhat());
        top.put("min_ess", thresholds.minEss());
        top.put("failing", failing);
        top.put("seconds", seconds);
        top.put("parameters", SummaryFiles.json(summaries));
        output.writeText("summary.json", SummaryFiles.render(top));
        output.writeText("summary.csv", SummaryFiles.csv(summaries));
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("inputs", String.join(" ", inputs));
        facts.put("format", source.format());
        facts.put("chains", source.chains());
        facts.put("draws per chain", source.drawsPerChain());
        facts.put("parameters", summaries.size());
        List<ParameterResult> shown = ParameterResult.worstFirst(results, thresholds, reportParameters);
        output.writeText("report.html", new HtmlReport("sparkmc diagnose").facts(facts)
                .summary(summaries, thresholds).parameters(shown, results.size()).render());
    }

    /** The verdict line, and the failing parameters with their reasons. */
    private static void printVerdict(java.io.PrintWriter out, Map<String, List<String>> failing, int total,
            String where) {
        if (failing.isEmpty()) {
            out.printf("diagnose: all %d parameters pass; outputs in %s%n", total, where);
            return;
        }
        out.printf("diagnose: %d of %d parameters fail; outputs in %s%n", failing.size(), total, where);
        failing.forEach((name, why) -> out.printf("  %s: %s%n", name, String.join("; ", why)));
    }
}
