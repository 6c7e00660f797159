package org.sparkmc.spark.lda;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.lda.LdaKernel;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.ModelParallelDriver.TotalsSync;
import org.sparkmc.spark.SparkSetup;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.cli.JobCommand;
import org.sparkmc.spark.cli.OutputOptions;
import org.sparkmc.spark.cli.Require;
import org.sparkmc.spark.cli.ResumeOptions;
import org.sparkmc.spark.cli.SyncViaOption;
import org.sparkmc.spark.io.AtomicOutput;
import org.sparkmc.spark.io.LineageCheckpoints;
import org.sparkmc.spark.io.UserPaths;
import org.sparkmc.spark.run.CheckpointCadence;
import org.sparkmc.spark.sync.SyncVia;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code sparkmc lda}: a topic model by AD-LDA collapsed Gibbs sampling with the documents spread over executors. */
@Command(name = "lda", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Fits an LDA topic model by distributed collapsed Gibbs sampling (AD-LDA, Newman et al. 2009): "
            + "document blocks stay on the executors with their topic assignments, the topic-word counts are "
            + "broadcast and merged between sweeps, or (--mode model-parallel) cut into word slices that rotate "
            + "over the blocks. Held-out documents are scored by document completion.",
            "Input: a UCI bag-of-words pair (--docword, --vocab) or plain text with one document per line (--text). "
            + "Options may come from a config file (--conf, HOCON, keys = option names without dashes); the command "
            + "line overrides it. Exit codes: 0 done, 2 bad input, " + ExitCode.HELP_JVM_ENDS + ", 1 anything "
            + "else."})
public final class LdaCommand extends JobCommand {
    private static final Logger LOG = LoggerFactory.getLogger(LdaCommand.class);

    @Option(names = "--docword", paramLabel = "PATH", description = "UCI docword file (docword.*.txt or .txt.gz), or a directory whose files in path order make "
                + "one (the first holding the header), as generate-lda writes it.")
    private String docword;

    @Option(names = "--vocab", paramLabel = "PATH", description = "UCI vocabulary file (vocab.*.txt), with --docword.")
    private String vocab;

    @Option(names = "--text", paramLabel = "PATH",
            description = "Plain text, one document per line (a file, a directory, or a glob such as dir/*.txt; files "
                + "are read in path order); a document's id is its line number over all files. Tokenised by Spark "
                + "ML's RegexTokenizer, StopWordsRemover and CountVectorizer: a token is a lowercased run of letters "
                + "and digits, two or more long, with the apostrophes inside a word (don't).")
    private String text;

    @Option(names = "--vocab-size", paramLabel = "N", defaultValue = "10000",
            description = "With --text: keep the N most frequent words. Default: ${DEFAULT-VALUE}.")
    private int vocabSize;

    @Option(names = "--min-df", paramLabel = "N", defaultValue = "2",
            description = "With --text: keep words found in at least N documents. Default: ${DEFAULT-VALUE}.")
    private int minDf;

    @Option(names = "--keep-stop-words", fallbackValue = "true", description = "With --text: keep English stop words.")
    private boolean keepStopWords;

    @Option(names = "--topics", paramLabel = "K", defaultValue = "100",
            description = "Topics. Default: ${DEFAULT-VALUE}.")
    private int topics;

    @Option(names = "--alpha", paramLabel = "A", defaultValue = "0",
            description = "Document-topic concentration α (MLlib's docConcentration); 0 means 50/K (Griffiths & "
                + "Steyvers). Default: ${DEFAULT-VALUE}.")
    private double alpha;

    @Option(names = "--beta", paramLabel = "B", defaultValue = "0.01",
            description = "Topic-word concentration β (MLlib's topicConcentration). Default: ${DEFAULT-VALUE}.")
    private double beta;

    @Option(names = "--sweeps", paramLabel = "N", defaultValue = "200",
            description = "Gibbs sweeps. Default: ${DEFAULT-VALUE}.")
    private int sweeps;

    @Option(names = "--sync-interval", paramLabel = "N", defaultValue = "1",
            description = "Sweeps each block makes between merges of the counts. Default: ${DEFAULT-VALUE}.")
    private int syncInterval;

    @Mixin
    private SyncViaOption syncVia;

    @Option(names = "--blocks", paramLabel = "B", defaultValue = "8",
            description = "Document blocks: with the seed they fix every draw, whatever the partitions or executors. "
                + "Default: ${DEFAULT-VALUE}.")
    private int blocks;

    @Option(names = "--mode", paramLabel = "MODE", defaultValue = "auto",
            description = "broadcast (AD-LDA: every executor holds the whole topic-word table), model-parallel (the "
                + "table in --blocks word slices that rotate over the document blocks: no executor holds it all), "
                + "or auto: broadcast while its copies fit half an executor's heap. Default: ${DEFAULT-VALUE}.")
    private String mode;

    @Option(names = "--totals-sync", paramLabel = "WHEN", defaultValue = "sweep",
            description = "Model-parallel mode: synchronise the K topic totals after every sweep (as LightLDA) or "
                + "after every sub-step (sub-step). Default: ${DEFAULT-VALUE}.")
    private String totalsSync;

    @Option(names = "--chains", paramLabel = "C", defaultValue = "1",
            description = "Run C independent chains in turn and go on with the one of highest training "
                + "log-likelihood: a way out of one chain's local optima (two topics merged, another split). "
                + "Default: ${DEFAULT-VALUE}.")
    private int chains;

    @Option(names = "--chain-sweeps", paramLabel = "N", defaultValue = "0",
            description = "With --chains: the sweeps each chain runs before the best is chosen; it then goes on to "
                + "--sweeps (0: all of them). Default: ${DEFAULT-VALUE}.")
    private int chainSweeps;

    @Option(names = "--kernel", paramLabel = "NAME", defaultValue = "sparse",
            description = "sparse (exact collapsed Gibbs, SparseLDA buckets) or cycle-mh (LightLDA-style "
                + "Metropolis-Hastings, O(1) per token; for large K). Default: ${DEFAULT-VALUE}.")
    private String kernel;

    @Option(names = "--topic-samples", paramLabel = "S", defaultValue = "1",
            description = "Report the posterior mean of the topics over the last S states (every "
                    + "--topic-sample-every sweeps, ending at the last sweep) instead of the final state's. "
                    + "Default: ${DEFAULT-VALUE} (the final state).")
    private int topicSamples;

    @Option(names = "--topic-sample-every", paramLabel = "N", defaultValue = "10",
            description = "Sweeps between the averaged states. Default: ${DEFAULT-VALUE}.")
    private int topicSampleEvery;

    @Option(names = "--held-out-every", paramLabel = "N", defaultValue = "10",
            description = "Hold out documents whose id is a multiple of N and score them by document completion (0: "
                + "none). Default: ${DEFAULT-VALUE}.")
    private int heldOutEvery;

    @Option(names = "--left-to-right", paramLabel = "R", defaultValue = "0",
            description = "Also score the whole held-out documents by the left-to-right estimate of p(w_d) with R "
                + "particles (Wallach et al. 2009, as an unbiased particle filter; costs R·K per token). Default: "
                + "${DEFAULT-VALUE} (off).")
    private int leftToRight;

    @Option(names = "--left-to-right-moves", paramLabel = "M", defaultValue = "1",
            description = "Gibbs sweeps over a particle's earlier tokens after each resampling of the left-to-right "
                + "estimate (resample-move: keeps it unbiased and makes it far more accurate for few particles; costs "
                + "up to M·R·K per earlier token, 0 for very long documents). Default: ${DEFAULT-VALUE}.")
    private int leftToRightMoves;

    @Option(names = "--eval-burn-in", paramLabel = "N", defaultValue = "50",
            description = "Held-out fold-in sweeps discarded. Default: ${DEFAULT-VALUE}.")
    private int evalBurnIn;

    @Option(names = "--eval-samples", paramLabel = "N", defaultValue = "50",
            description = "Held-out fold-in sweeps averaged. Default: ${DEFAULT-VALUE}.")
    private int evalSamples;

    @Option(names = "--top-words", paramLabel = "N", defaultValue = "20",
            description = "Words per topic in topics.csv. Default: ${DEFAULT-VALUE}.")
    private int topWords;

    @Option(names = "--partitions", paramLabel = "N", defaultValue = "0",
            description = "Spark partitions holding the blocks (does not change any number). Default: min(blocks, "
                + "Spark's default parallelism).")
    private int partitions;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "20261122",
            description = "Root seed: every block's stream derives from it. Default: ${DEFAULT-VALUE}.")
    private long seed;

    @Mixin
    private ResumeOptions checkpoint;

    @Option(names = "--checkpoint-every", paramLabel = "N|auto", defaultValue = "auto",
            description = "Sweeps between checkpoints, or auto: a save once the sweeps since the last have taken "
                + "30 s, or 19 times as long as that save took if longer, so that saves after the first take about 5%% "
                + "of the run at most (a save ends the stage that relays the sweeps). Default: ${DEFAULT-VALUE}.")
    private String checkpointEvery;

    @Option(names = "--lineage-every", paramLabel = "N", defaultValue = "10",
            description = "Steps between cuts of the cached blocks' Spark lineage (not resumable: see --checkpoint). "
                + "Default: ${DEFAULT-VALUE}.")
    private int lineageEvery;

    @Option(names = "--lineage-dir", paramLabel = "DIR",
            description = "Reliable RDD checkpoints for the lineage cuts (survive a lost executor; give a shared file "
                + "system on a cluster). Default: DIR/rdd under --checkpoint, else local checkpoints in executor "
                + "storage, which a lost executor takes with it.")
    private String lineageDir;

    @Mixin
    private OutputOptions outputOptions;

    @Override
    @SuppressWarnings("try") // the checkpoint lease is held for the run, not used in it
    public Integer call() {
        configFile.checkKeys(spec, Set.of());
        outputOptions.requireOut();
        boolean uci = docword != null && !docword.isBlank();
        boolean plain = text != null && !text.isBlank();
        if (uci == plain) {
            throw new InvalidInputException("give the corpus as --docword FILE --vocab FILE, or as --text PATH "
                    + "(exactly one of the two)");
        }
        if (uci && (vocab == null || vocab.isBlank())) {
            throw new InvalidInputException("--docword needs --vocab FILE (the UCI vocabulary)");
        }
        if (plain && vocab != null && !vocab.isBlank()) { // it was ignored without a word
            throw new InvalidInputException("--vocab goes with --docword; with --text the vocabulary is built from the "
                    + "text (--vocab-size, --min-df)");
        }
        CheckpointCadence cadence = checkpoint.cadence(checkpointEvery);
        checkPartitions(partitions);
        if (partitions > blocks && blocks >= 1) { // ran with the extra partitions empty, relayed or not
            throw new InvalidInputException("--partitions " + partitions + " exceeds the " + blocks + " --blocks: "
                    + "each partition holds whole blocks, so " + (partitions - blocks) + " would stay empty; lower "
                    + "--partitions, or raise --blocks (the blocks, with the seed, fix every draw)");
        }
        LdaConfig config = config();
        warnOfOptionsWithoutEffect(uci, config);
        LdaChains several = LdaChains.of(chains, chainSweeps, config,
                checkpoint.dir() != null || checkpoint.resume());
        LdaCorpusReader.TextOptions textOptions = null;
        if (plain) { // checked by name here: TextOptions names no option
            textOptions = LdaCorpusReader.TextOptions.of(Require.atLeast(vocabSize, 1, "--vocab-size"),
                    Require.atLeast(minDf, 1, "--min-df"), !keepStopWords);
        }
        // The header and vocabulary are checked before Spark starts (a refusal in about a second, not ten).
        LdaCorpusReader.UciHead uciHead = uci
                ? LdaCorpusReader.readUciHead(docword, vocab, SparkSetup.hadoopConfiguration()) : null;
        // The docword header's D bounds the document ids; the corpus read tells the rest.
        boolean beyondIds = uci && heldOutEvery > uciHead.header().documents();
        if (beyondIds) {
            int d = uciHead.header().documents();
            checkSomeHeldOut(true, docword + " says D=" + d + ", so its document ids run from 1 to " + d);
        }
        if (plain) { // likewise that the text corpus is there
            LdaCorpusReader.checkText(text, SparkSetup.hadoopConfiguration());
        }

        LdaResult result = null;
        UserPaths.directoryOrAbsent("--lineage-dir", lineageDir, SparkSetup.hadoopConfiguration());
        LineageCheckpoints.Directory lineage = LineageCheckpoints.directory(lineageDir,
                SparkSetup.hadoopConfiguration());
        try (AtomicOutput output = outputOptions.open(runPaths().input("--docword", docword).input("--vocab", vocab)
                .input("--text", text).apart("--checkpoint", checkpoint.dir()).apart("--lineage-dir", lineageDir));
                ResumeOptions.Claim claim = checkpoint.claim()) {
            if (checkpoint.resume()) { // other settings or a damaged checkpoint are refused before Spark starts
                new LdaCheckpoint(checkpoint.dir(), SparkSetup.hadoopConfiguration()).checkBeforeSpark(config);
            }
            SparkSession spark = outputOptions.session("sparkmc lda");
            JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
            if (partitions <= 0) {
                config = config.withPartitions(Math.max(1, Math.min(blocks, sc.defaultParallelism())));
            }
            // Read on the executors: the driver holds only the header, the vocabulary and the documents' index.
            LdaCorpus corpus = uci ? LdaCorpusReader.readUci(sc, uciHead)
                    : LdaCorpusReader.readText(spark, text, textOptions);
            checkSomeHeldOut(!beyondIds && corpus.documents().heldOut(heldOutEvery).numDocuments() == 0,
                    "none of the " + corpus.documents().numDocuments() + " documents with words in " + corpus.source()
                    + " has an id that is a multiple of " + heldOutEvery);
            result = new LdaJob(spark, config, new LdaJob.Checkpointing(checkpoint.dir(), cadence,
                    checkpoint.resume(), lineageDir), several)
                    .run(corpus);
            LdaOutput.write(spark, output, config, result);
            output.commit();
            spec.commandLine().getOut().printf(Locale.ROOT, "lda: %d topics, %d sweeps over %d training tokens in "
                    + "%.1f s%s; log p(w,z)/token %.4f; held-out perplexity %s; outputs in %s%n",
                    config.priors().numTopics(), config.sweeps(), result.training().numTokens(), result.seconds(),
                    result.resumed() ? " (resumed from " + checkpoint.dir() + ")" : "", result.last().perToken(),
                    result.heldOutResult() == null ? "(none held out)"
                            : String.format(Locale.ROOT, "%.2f", result.heldOutResult().perplexity()),
                    output.target());
            return ExitCode.OK;
        } finally {
            if (result != null) {
                result.run().close();
            }
            lineage.close(); // after the run's last lineage checkpoint is deleted
        }
    }

    private LdaConfig config() {
        // GibbsLDA spells them sparse_gibbs and cycle_mh: both spellings are taken.
        LdaKernel k = switch (kernel.trim().toLowerCase(Locale.ROOT).replace('_', '-')) {
            case "sparse", "sparse-gibbs", "gibbs" -> LdaKernel.SPARSE_GIBBS;
            case "cycle-mh", "mh", "lightlda" -> LdaKernel.CYCLE_MH;
            default -> throw new InvalidInputException("--kernel must be sparse (also sparse-gibbs, sparse_gibbs) or "
                    + "cycle-mh (also cycle_mh), is '" + kernel + "'");
        };
        SyncVia via = syncVia.value();
        // Checked here by name: LdaPriors names no option (a value from the config file gets its file and line).
        Require.inRange(topics, 1, LdaPriors.MAX_TOPICS, "--topics");
        Require.atLeast(alpha, 0, "--alpha"); // 0: 50/K
        Require.positive(beta, "--beta");
        LdaPriors priors = new LdaPriors(topics, alpha == 0 ? 50.0 / topics : alpha, beta);
        TotalsSync sync = switch (totalsSync.trim().toLowerCase(Locale.ROOT).replace('_', '-')) {
            case "sweep" -> TotalsSync.SWEEP;
            case "sub-step", "substep" -> TotalsSync.SUB_STEP;
            default -> throw new InvalidInputException("--totals-sync must be sweep or sub-step, is '" + totalsSync
                    + "'");
        };
        return new LdaConfig(priors, k, sweeps, syncInterval, blocks, Math.max(partitions, 1), seed, heldOutEvery,
                evalBurnIn, evalSamples, topWords, lineageEvery, topicSamples, topicSampleEvery, leftToRight,
                leftToRightMoves, via, LdaMode.parse(mode), sync);
    }

    /**
     * Refuses a {@code --held-out-every} that holds out no document ({@code none}, {@code why}): the evaluation
     * asked for would quietly not happen, as 1 is refused for holding out every document. Given on the command line
     * or in a config file it is bad input; left at its default (a corpus of fewer documents) it is a warning.
     */
    private void checkSomeHeldOut(boolean none, String why) {
        if (heldOutEvery < 2 || !none) {
            return;
        }
        String says = "--held-out-every " + heldOutEvery + " holds out no document (" + why + "), so nothing would "
                + "be evaluated";
        if (given("--held-out-every")) {
            throw new InvalidInputException(says + ": give a smaller value, or 0 for no held-out documents");
        }
        LOG.warn("{} (the default): there is no held-out perplexity; give --held-out-every 0 to say so, or a "
                + "smaller value", says);
    }

    /** Options on the command line that this run does not read, which it took without a word. */
    private void warnOfOptionsWithoutEffect(boolean uci, LdaConfig config) {
        if (uci) {
            warnOfNoEffect(List.of("--vocab-size", "--min-df", "--keep-stop-words"),
                    "with --docword (they build the vocabulary of --text)");
        }
        if (chains == 1) {
            warnOfNoEffect(List.of("--chain-sweeps"), "with one chain (--chains 1)");
        }
        if (config.mode() == LdaMode.BROADCAST) {
            warnOfNoEffect(List.of("--totals-sync"), "with --mode broadcast (it is the model-parallel mode's)");
        }
        if (topicSamples == 1) {
            warnOfNoEffect(List.of("--topic-sample-every"), "with one topic sample (--topic-samples 1)");
        }
        if (heldOutEvery == 0) {
            warnOfNoEffect(List.of("--eval-burn-in", "--eval-samples", "--left-to-right", "--left-to-right-moves"),
                    "with --held-out-every 0 (no document is held out to evaluate)");
        } else if (leftToRight == 0) {
            warnOfNoEffect(List.of("--left-to-right-moves"), "without --left-to-right");
        }
    }
}
