package org.sparkmc.core.bench.lda;

import cc.mallet.topics.ParallelTopicModel;
import cc.mallet.types.Alphabet;
import cc.mallet.types.FeatureSequence;
import cc.mallet.types.Instance;
import cc.mallet.types.InstanceList;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.sparkmc.core.lda.AdLda;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.core.lda.CycleMhLdaSampler;
import org.sparkmc.core.lda.LdaSampler;
import org.sparkmc.core.lda.DocumentCompletion;
import org.sparkmc.core.lda.LdaLogLikelihood;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.LeftToRight;
import org.sparkmc.core.lda.SparseLdaSampler;
import org.sparkmc.core.lda.TopicWordCounts;
import org.sparkmc.core.lda.UciBagOfWords;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.smc.ResamplingScheme;

/**
 * sparkmc's SparseLDA sampler against Mallet 2.0.8's {@code ParallelTopicModel} (1 thread, same priors, no
 * hyper-parameter optimisation, same number of sweeps), back to back in one JVM on the same KOS training tokens
 * (documents with docId % 10 != 0), then document-completion perplexity of both on the held-out 10% with one
 * evaluator ({@link DocumentCompletion#standard()}).
 *
 * <p>Arguments: {@code K sweeps [seed] [both|ours|mallet] [sparse|mh] [cycles]}, e.g. {@code 100 200}; system property
 * {@code chunk} (default 20). The two run interleaved, {@code chunk} sweeps at a time, alternating which goes first,
 * so that changes in the (shared) machine's load hit both alike. Tokens/s = training tokens × sweeps / seconds of the
 * sweeps alone (Mallet: of {@code estimate()}, which it runs on one worker thread), both by wall clock and by process
 * CPU time (less sensitive to other processes competing for the cores). Each Mallet chunk gets its own seed, as each
 * of our sweeps gets its own stream. {@code -DmalletThreads=N} runs Mallet with N threads, which is Mallet's own
 * AD-LDA (a copy of the counts per thread, summed after each sweep): the reference for our block-count property.
 * Each system's rate is also printed as one {@code RESULT row=lda-K system=… tokens_per_second=…} line;
 * {@code -Deval=false} stops there, before the (slow) held-out evaluations; {@code -DprintChunks=true} prints the
 * running wall time of each after every chunk; {@code -Ddocword=FILE} reads another UCI docword file (gzipped)
 * instead of KOS, e.g. KOS replicated 20 times ({@code ReplicatedCorpus}), split the same way by id.
 */
public final class KosLdaBenchmark {
    /** Particles of both left-to-right estimates (Mallet's {@code evaluate-topics} default is 10). */
    private static final int LEFT_TO_RIGHT_PARTICLES = Integer.getInteger("l2r", 20);
    /** Gibbs moves after each resampling in sparkmc's left-to-right estimate ({@code -Dl2rMoves}, default 0). */
    private static final int LEFT_TO_RIGHT_MOVES = Integer.getInteger("l2rMoves", 0);

    private KosLdaBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int k = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int sweeps = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        long seed = args.length > 2 ? Long.parseLong(args[2]) : 1;
        String which = args.length > 3 ? args[3] : "both";
        String kernel = args.length > 4 ? args[4] : "sparse";
        int cycles = args.length > 5 ? Integer.parseInt(args[5]) : CycleMhLdaSampler.DEFAULT_CYCLES;
        int chunk = Integer.getInteger("chunk", 20);
        Path dir = Path.of(System.getProperty("sparkmc.shared.data", "/work/shared/data"), "kos");
        Path docword = Path.of(System.getProperty("docword", dir.resolve("docword.kos.txt.gz").toString()));
        Corpus kos;
        try (InputStream in = Files.newInputStream(docword)) {
            kos = UciBagOfWords.readDocword(in, docword.getFileName().toString()).corpus();
        }
        Corpus train = kos.selectByDocId(id -> id % 10 != 0);
        Corpus heldOut = kos.selectByDocId(id -> id % 10 == 0);
        LdaPriors priors = LdaPriors.griffithsSteyvers(k, 0.01);
        System.out.printf(Locale.ROOT, "KOS train: %d docs, %d tokens; held out: %d docs, %d tokens; K=%d alpha=%.4f"
                + " beta=%.2f sweeps=%d seed=%d; interleaved in chunks of %d sweeps%n", train.numDocuments(),
                train.numTokens(), heldOut.numDocuments(), heldOut.numTokens(), k, priors.alpha(), priors.beta(),
                sweeps, seed, chunk);
        Ours ours = which.equals("mallet") ? null : new Ours(train, priors, seed, kernel, cycles);
        Mallet mallet = which.equals("ours") ? null : new Mallet(train, priors);
        for (int done = 0, c = 0; done < sweeps; done += chunk, c++) {
            int n = Math.min(chunk, sweeps - done);
            // Alternate who goes first so that drifts in the machine's load hit both alike.
            if (c % 2 == 0) {
                if (ours != null) {
                    ours.run(done, n);
                }
                if (mallet != null) {
                    mallet.run(n, (int) seed * 1000 + c);
                }
            } else {
                if (mallet != null) {
                    mallet.run(n, (int) seed * 1000 + c);
                }
                if (ours != null) {
                    ours.run(done, n);
                }
            }
            if (Boolean.getBoolean("printChunks")) {
                System.out.printf(Locale.ROOT, "after sweep %d: ours %.3f s, mallet %.3f s in all%n", done + n,
                        ours == null ? Double.NaN : ours.wall, mallet == null ? Double.NaN : mallet.wall);
            }
        }
        // One machine-readable line per system (submit/bench-all reads Mallet's); -Deval=false stops here.
        if (ours != null) {
            System.out.printf(Locale.ROOT, "RESULT row=lda-%d system=sparkmc-core tokens_per_second=%.1f seconds=%.3f%n",
                    k, (double) train.numTokens() * sweeps / ours.wall, ours.wall);
        }
        if (mallet != null) {
            System.out.printf(Locale.ROOT, "RESULT row=lda-%d system=mallet-2.0.8 threads=%d tokens_per_second=%.1f"
                    + " seconds=%.3f%n", k, Integer.getInteger("malletThreads", 1),
                    (double) train.numTokens() * sweeps / mallet.wall, mallet.wall);
        }
        if (!Boolean.parseBoolean(System.getProperty("eval", "true"))) {
            return;
        }
        if (ours != null) {
            TopicWordCounts counts = ours.sampler.counts();
            report(ours.name, train, heldOut, priors, sweeps, ours.wall, ours.cpu, counts,
                    LdaLogLikelihood.joint(train, ours.z, counts, priors), seed);
            printSparsity(train, ours.z, counts);
            System.out.printf(Locale.ROOT, "  state: 6 bytes/token (int word id + char topic); topic-word counts: %d"
                    + " non-zero cells, %d bytes (sparse packed, as broadcast) vs %d bytes as dense W*K ints%n",
                    counts.nonZeros(), counts.payloadBytes(), 4L * train.vocabularySize() * priors.numTopics());
        }
        if (mallet != null) {
            mallet.finish(train, heldOut, priors, sweeps, seed);
        }
        if (ours != null && mallet != null) {
            System.out.printf(Locale.ROOT, "ratio sparkmc/Mallet tokens/s: %.2f (wall), %.2f (process CPU)%n",
                    mallet.wall / ours.wall, mallet.cpu / ours.cpu);
        }
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** sparkmc's sampler, run chunk by chunk (per-sweep streams, as AD-LDA with one block). */
    private static final class Ours {
        final Corpus train;
        final RandomStreams streams;
        final char[] z;
        final LdaSampler sampler;
        final String name;
        double wall;
        double cpu;

        Ours(Corpus train, LdaPriors priors, long seed, String kernel, int cycles) {
            this.train = train;
            this.streams = new RandomStreams(seed);
            this.z = AdLda.initializeBlock(train, 0, priors, streams).topics();
            TopicWordCounts start = TopicWordCounts.of(train, z, priors.numTopics());
            System.out.printf(Locale.ROOT, "  initial (random) topic-word counts: %d non-zero cells, %d bytes sparse packed%n",
                    start.nonZeros(), start.payloadBytes());
            this.sampler = kernel.equals("mh") ? CycleMhLdaSampler.of(priors, start, cycles)
                    : SparseLdaSampler.of(priors, start);
            this.name = kernel.equals("mh") ? "sparkmc MH x" + cycles : "sparkmc SparseLDA";
        }

        void run(int first, int n) {
            long c0 = processCpuNanos();
            long t0 = System.nanoTime();
            for (int s = first; s < first + n; s++) {
                sampler.sweep(train, z, streams.stream(AdLda.SWEEP_STREAM, s, 0));
            }
            wall += (System.nanoTime() - t0) / 1e9;
            cpu += (processCpuNanos() - c0) / 1e9;
        }
    }

    /** Mallet's ParallelTopicModel on the same tokens; estimate() called chunk by chunk with a fresh seed each. */
    private static final class Mallet {
        final ParallelTopicModel model;
        double wall;
        double cpu;

        Mallet(Corpus train, LdaPriors priors) {
            Logger.getLogger("cc.mallet").setLevel(Level.WARNING);
            ParallelTopicModel.logger.setLevel(Level.WARNING);
            int k = priors.numTopics();
            Alphabet alphabet = new Alphabet();
            for (int v = 0; v < train.vocabularySize(); v++) {
                alphabet.lookupIndex("w" + v, true);
            }
            InstanceList instances = new InstanceList(alphabet, null);
            for (int d = 0; d < train.numDocuments(); d++) {
                int[] tokens = java.util.Arrays.copyOfRange(train.words(), train.docStart(d), train.docEnd(d));
                instances.add(new Instance(new FeatureSequence(alphabet, tokens), null, "doc" + train.docId(d), null));
            }
            model = new ParallelTopicModel(k, priors.alpha() * k, priors.beta());
            model.setNumThreads(Integer.getInteger("malletThreads", 1));
            model.setOptimizeInterval(0);
            model.setBurninPeriod(0);
            model.setSymmetricAlpha(true);
            model.setTopicDisplay(Integer.MAX_VALUE, 0);
            model.printLogLikelihood = false;
            model.setRandomSeed(1);
            model.addInstances(instances);
        }

        void run(int n, int seed) throws java.io.IOException {
            model.setNumIterations(n);
            model.setRandomSeed(seed);
            long c0 = processCpuNanos();
            long t0 = System.nanoTime();
            model.estimate();
            wall += (System.nanoTime() - t0) / 1e9;
            cpu += (processCpuNanos() - c0) / 1e9;
        }

        void finish(Corpus train, Corpus heldOut, LdaPriors priors, int sweeps, long seed) {
            int k = priors.numTopics();
            int w = train.vocabularySize();
            int[] dense = new int[w * k];
            int[][] typeTopic = model.getTypeTopicCounts();
            for (int v = 0; v < w; v++) {
                for (int cell : typeTopic[v]) {
                    if (cell >>> model.topicBits == 0) {
                        break;
                    }
                    dense[v * k + (cell & model.topicMask)] += cell >>> model.topicBits;
                }
            }
            TopicWordCounts counts = TopicWordCounts.fromDense(dense, k, w);
            char[] z = new char[train.numTokens()];
            for (int d = 0; d < train.numDocuments(); d++) {
                int[] topics = model.getData().get(d).topicSequence.getFeatures();
                for (int i = 0; i < train.docLength(d); i++) {
                    z[train.docStart(d) + i] = (char) topics[i];
                }
            }
            if (!counts.equals(TopicWordCounts.of(train, z, k))) {
                throw new IllegalStateException("Mallet's counts disagree with its assignment");
            }
            report("Mallet 2.0.8", train, heldOut, priors, sweeps, wall, cpu, counts,
                    LdaLogLikelihood.joint(train, z, counts, priors), seed);
            printSparsity(train, z, counts);
            System.out.printf(Locale.ROOT, "  Mallet's own modelLogLikelihood(): %.1f%n", model.modelLogLikelihood());
            InstanceList held = new InstanceList(model.getAlphabet(), null);
            for (int d = 0; d < heldOut.numDocuments(); d++) {
                int[] tokens = java.util.Arrays.copyOfRange(heldOut.words(), heldOut.docStart(d), heldOut.docEnd(d));
                held.add(new Instance(new FeatureSequence(model.getAlphabet(), tokens), null, "held" + d, null));
            }
            for (boolean resampling : new boolean[] {false, true}) {
                long t0 = System.nanoTime();
                cc.mallet.topics.MarginalProbEstimator estimator = model.getProbEstimator();
                estimator.setRandomSeed((int) seed);
                double logLik = estimator.evaluateLeftToRight(held, LEFT_TO_RIGHT_PARTICLES, resampling, null);
                System.out.printf(Locale.ROOT, "  Mallet's own left-to-right (%d particles, resampling %s): "
                        + "perplexity %.1f on %d tokens (%.1f s)%n", LEFT_TO_RIGHT_PARTICLES, resampling,
                        Math.exp(-logLik / heldOut.numTokens()), heldOut.numTokens(), (System.nanoTime() - t0) / 1e9);
            }
        }
    }

    /**
     * The work a SparseLDA draw does in the final state, averaged over tokens: the non-zero topics of the token's word
     * (the q walk) and of its document (the r walk, and the work of a document-side decomposition).
     */
    private static void printSparsity(Corpus train, char[] z, TopicWordCounts counts) {
        int[] starts = counts.rowStarts();
        double rowLength = 0;
        for (int w : train.words()) {
            rowLength += starts[w + 1] - starts[w];
        }
        double docTopics = 0;
        int[] seen = new int[counts.numTopics()];
        for (int d = 0; d < train.numDocuments(); d++) {
            int distinct = 0;
            for (int i = train.docStart(d); i < train.docEnd(d); i++) {
                if (seen[z[i]]++ == 0) {
                    distinct++;
                }
            }
            docTopics += (double) distinct * train.docLength(d);
            for (int i = train.docStart(d); i < train.docEnd(d); i++) {
                seen[z[i]] = 0;
            }
        }
        System.out.printf(Locale.ROOT, "  per token, final state: %.1f non-zero topics of its word, %.1f of its"
                + " document%n", rowLength / train.numTokens(), docTopics / train.numTokens());
    }

    private static void report(String name, Corpus train, Corpus heldOut, LdaPriors priors, int sweeps, double secs,
            double cpuSecs, TopicWordCounts counts, double logLik, long seed) {
        long t0 = System.nanoTime();
        DocumentCompletion.Result r = DocumentCompletion.standard().evaluate(counts, priors, heldOut,
                new RandomStreams(seed + 1000));
        double evalSecs = (System.nanoTime() - t0) / 1e9;
        t0 = System.nanoTime();
        DocumentCompletion.Result l2r = LeftToRight.of(LEFT_TO_RIGHT_PARTICLES, ResamplingScheme.SYSTEMATIC,
                LEFT_TO_RIGHT_MOVES).evaluate(counts, priors, heldOut, new RandomStreams(seed + 1000));
        double l2rSecs = (System.nanoTime() - t0) / 1e9;
        System.out.printf(Locale.ROOT, "%-18s K=%d sweeps=%d: %.2f s wall, %.2f M tokens/s wall, %.2f M tokens/s per"
                + " CPU-second; log p(w,z)=%.1f (%.4f per token); completion perplexity %.1f on %d tokens (eval %.1f s)%n",
                name, priors.numTopics(), sweeps, secs, (double) train.numTokens() * sweeps / secs / 1e6,
                (double) train.numTokens() * sweeps / cpuSecs / 1e6, logLik, logLik / train.numTokens(),
                r.perplexity(), r.scoredTokens(), evalSecs);
        System.out.printf(Locale.ROOT, "  left-to-right (sparkmc's particle filter, %d particles, %d moves): perplexity"
                + " %.1f on %d tokens (%.1f s)%n", LEFT_TO_RIGHT_PARTICLES, LEFT_TO_RIGHT_MOVES, l2r.perplexity(), l2r.scoredTokens(), l2rSecs);
    }
}
