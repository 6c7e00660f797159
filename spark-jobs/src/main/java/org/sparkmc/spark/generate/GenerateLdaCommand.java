package org.sparkmc.spark.generate;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.lda.PlantedCorpus;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.cli.JobCommand;
import org.sparkmc.spark.cli.OutputOptions;
import org.sparkmc.spark.cli.Require;
import org.sparkmc.spark.diagnose.SummaryFiles;
import org.sparkmc.spark.io.AtomicOutput;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code sparkmc generate-lda}: a seeded synthetic UCI bag-of-words corpus drawn from the LDA generative model with
 * planted topics and a Zipf-like vocabulary ({@link PlantedCorpus}), written by the executors, with the planted
 * topics beside it.
 */
@Command(name = "generate-lda", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Writes a synthetic UCI bag-of-words corpus (docword/, vocab.txt) drawn from the LDA generative "
            + "model with K planted topics over a Zipf-like vocabulary, and the planted topics beside it "
            + "(planted_topics.csv, planted_topic_word.parquet), for the lda job: sparkmc lda --docword OUT/docword "
            + "--vocab OUT/vocab.txt. The executors generate and write the documents; document d depends only on "
            + "the seed and d, so the files are the same for any --partitions.",
            "Exit codes: 0 done, 2 bad input, " + ExitCode.HELP_JVM_ENDS + ", 1 anything else."})
public final class GenerateLdaCommand extends JobCommand {
    @Option(names = "--preset", paramLabel = "NAME", defaultValue = "small",
            description = "small (D = 2,000, V = 2,000, K = 20, L = 150), nytimes (300,000 × 333 tokens, V = 102,660, "
                + "K = 100) or pubmed (8.2 M × 89 tokens, V = 141,043, K = 100); the options below override it. "
                + "Default: ${DEFAULT-VALUE}.")
    private String preset;

    @Option(names = "--documents", paramLabel = "D", description = "Documents (ids 1 … D). Default: the preset's.")
    private Long documents;

    @Option(names = "--vocabulary", paramLabel = "V", description = "Vocabulary size. Default: the preset's.")
    private Integer vocabulary;

    @Option(names = "--topics", paramLabel = "K", description = "Planted topics (≤ V). Default: the preset's.")
    private Integer topics;

    @Option(names = "--mean-length", paramLabel = "L",
            description = "Mean document length in tokens (1 + a gamma-mixed Poisson: coefficient of variation about "
                + "0.7). Default: the preset's.")
    private Double meanLength;

    @Option(names = "--alpha", paramLabel = "A", defaultValue = "0.1",
            description = "Symmetric Dirichlet concentration of each document's topic mixture θ_d. "
                + "Default: ${DEFAULT-VALUE}.")
    private double alpha;

    @Option(names = "--zipf-exponent", paramLabel = "S", defaultValue = "1.0",
            description = "Exponent of the Zipf word ranks. Default: ${DEFAULT-VALUE}.")
    private double zipfExponent;

    @Option(names = "--background", paramLabel = "E", defaultValue = "0.1",
            description = "Weight in [0, 1) of the shared Zipf background in every topic (the rest is the topic's own "
                + "words). Default: ${DEFAULT-VALUE}.")
    private double background;

    @Option(names = "--top-words", paramLabel = "N", defaultValue = "20",
            description = "Words per planted topic in planted_topics.csv. Default: ${DEFAULT-VALUE}.")
    private int topWords;

    @Option(names = "--gzip", fallbackValue = "true",
            description = "Gzip the docword's files (each part file is then one Spark partition "
            + "to read).")
    private boolean gzip;

    @Option(names = "--partitions", paramLabel = "N", defaultValue = "0",
            description = "Part files, each a contiguous range of document ids (does not change the corpus). Default: "
                + "Spark's default parallelism, or more so that a part holds at most about 10 M tokens.")
    private int partitions;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "20261125",
            description = "Root seed: the topics and every document derive from it. Default: ${DEFAULT-VALUE}.")
    private long seed;

    @Mixin
    private OutputOptions outputOptions;

    /** Tokens a part file holds at most when --partitions is not given. */
    static final long TOKENS_PER_PART = 10_000_000;

    @Override
    public Integer call() {
        configFile.checkKeys(spec, Set.of());
        outputOptions.requireOut();
        checkPartitions(partitions);
        Require.atLeast(topWords, 1, "--top-words");
        CorpusPreset base = CorpusPreset.named(preset);
        PlantedCorpus.Settings settings = settings(base);
        // the driver's model alone (a task builds its own as well)
        outputOptions.refuseWorkBeyondTheLocalHeap(1, (long) settings.vocabularySize()
                * PlantedCorpus.LEAST_BYTES_PER_WORD, "--vocabulary " + settings.vocabularySize() + ": the planted "
                + "model's tables over the vocabulary");
        long start = System.nanoTime();
        try (AtomicOutput output = outputOptions.open(runPaths())) {
            SparkSession spark = outputOptions.session("sparkmc generate-lda");
            JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            double expectedTokens = settings.documents() * settings.meanLength();
            int parts = partitions > 0 ? partitions : (int) Math.max(sc.defaultParallelism(),
                    Math.ceil(expectedTokens / TOKENS_PER_PART));
            parts = (int) Math.min(parts, settings.documents());
            GenerateLdaJob.Written written = GenerateLdaJob.write(spark, output, settings, parts, gzip);
            output.writeText("planted_topics.csv",
                    GenerateLdaJob.plantedTopicsCsv(PlantedCorpus.of(settings), topWords));
            double seconds = (System.nanoTime() - start) / 1e9;
            output.writeText("settings.json", SummaryFiles.render(settingsJson(base, settings, written, seconds)));
            output.commit();
            spec.commandLine().getOut().printf(Locale.ROOT, "generate-lda: %d documents, %d tokens, %d docword lines "
                    + "over a vocabulary of %d, %d planted topics, in %d part files, %.1f s; outputs in %s%n",
                    settings.documents(), written.tokens(), written.lines(), settings.vocabularySize(),
                    settings.topics(), written.partFiles(), seconds, output.target());
            return ExitCode.OK;
        }
    }

    /**
     * The preset's settings with the options' overrides, each option checked by name first: core's
     * {@link PlantedCorpus.Settings} names none, so a value from the config file would be refused without its file
     * and line.
     */
    private PlantedCorpus.Settings settings(CorpusPreset base) {
        if (documents != null) {
            Require.inRange(documents, 1, Integer.MAX_VALUE, "--documents");
        }
        int v = vocabulary != null ? Require.atLeast(vocabulary, 1, "--vocabulary") : base.vocabularySize();
        int k = topics != null ? Require.atLeast(topics, 1, "--topics") : base.topics();
        // Every topic owns a word at least.
        if (topics == null) {
            Require.atLeast(v, k, "--vocabulary", "(the " + base.name() + " preset's topics; or give fewer --topics)");
        } else if (k > v) {
            throw new InvalidInputException("--topics must be ≤ the vocabulary size " + v + ", is " + k);
        }
        if (meanLength != null) {
            Require.inRange(meanLength, 1, PlantedCorpus.MAX_MEAN_LENGTH, "--mean-length");
        }
        Require.inLeftOpenRange(alpha, 0, PlantedCorpus.MAX_ALPHA, "--alpha");
        Require.inRange(zipfExponent, 0, PlantedCorpus.MAX_ZIPF_EXPONENT, "--zipf-exponent");
        Require.inHalfOpenRange(background, 0, 1, "--background");
        return new PlantedCorpus.Settings(documents != null ? documents : base.documents(), v, k,
                meanLength != null ? meanLength : base.meanLength(), alpha, zipfExponent, background, seed);
    }

    private Map<String, Object> settingsJson(CorpusPreset base, PlantedCorpus.Settings s,
            GenerateLdaJob.Written written, double seconds) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("job", "generate-lda");
        json.put("preset", base.name());
        json.put("documents", s.documents());
        json.put("vocabulary", s.vocabularySize());
        json.put("topics", s.topics());
        json.put("mean_length", s.meanLength());
        json.put("length_gamma_shape", PlantedCorpus.LENGTH_SHAPE);
        json.put("alpha", s.alpha());
        json.put("zipf_exponent", s.zipfExponent());
        json.put("background", s.background());
        json.put("seed", s.seed());
        json.put("gzip", gzip);
        json.put("tokens", written.tokens());
        json.put("docword_lines", written.lines());
        json.put("part_files", written.partFiles());
        json.put("seconds", seconds);
        return json;
    }
}
