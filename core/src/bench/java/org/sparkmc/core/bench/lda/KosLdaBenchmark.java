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
import org.sparkmc.core.lda.DocumentCompletion;
import org.sparkmc.core.lda.LdaLogLikelihood;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.SparseLdaSampler;
import org.sparkmc.core.lda.TopicWordCounts;
import org.sparkmc.core.lda.UciBagOfWords;
import org.sparkmc.core.random.RandomStreams;

/**
 * sparkmc's SparseLDA sampler against Mallet 2.0.8's {@code ParallelTopicModel} (1 thread, same priors, no
 * hyper-parameter optimisation, same number of sweeps), back to back in one JVM on the same KOS training tokens
 * (documents with docId % 10 != 0), then document-completion perplexity of both on the held-out 10% with one
 * evaluator ({@link DocumentCompletion#standard()}).
 *
 * <p>Arguments: {@code K sweeps [seed] [kernel]}, e.g. {@code 100 200}. Tokens/s = training tokens × sweeps / seconds
 * of the sweeps alone (Mallet: of {@code estimate()}), single thread.
 */
public final class KosLdaBenchmark {
    private KosLdaBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int k = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int sweeps = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        long seed = args.length > 2 ? Long.parseLong(args[2]) : 1;
        String which = args.length > 3 ? args[3] : "both";
        Path dir = Path.of(System.getProperty("sparkmc.shared.data", "/work/shared/data"), "kos");
        Corpus kos;
        try (InputStream in = Files.newInputStream(dir.resolve("docword.kos.txt.gz"))) {
            kos = UciBagOfWords.readDocword(in, "docword.kos.txt.gz").corpus();
        }
        Corpus train = kos.selectByDocId(id -> id % 10 != 0);
        Corpus heldOut = kos.selectByDocId(id -> id % 10 == 0);
        LdaPriors priors = LdaPriors.griffithsSteyvers(k, 0.01);
        System.out.printf(Locale.ROOT, "KOS train: %d docs, %d tokens; held out: %d docs, %d tokens; K=%d alpha=%.4f"
                + " beta=%.2f sweeps=%d seed=%d%n", train.numDocuments(), train.numTokens(), heldOut.numDocuments(),
                heldOut.numTokens(), k, priors.alpha(), priors.beta(), sweeps, seed);
        if (!which.equals("mallet")) {
            runOurs(train, heldOut, priors, sweeps, seed);
        }
        if (!which.equals("ours")) {
            runMallet(train, heldOut, priors, sweeps, seed);
        }
    }

    private static void runOurs(Corpus train, Corpus heldOut, LdaPriors priors, int sweeps, long seed) {
        RandomStreams streams = new RandomStreams(seed);
        char[] z = AdLda.initializeBlock(train, 0, priors, streams).topics();
        TopicWordCounts start = TopicWordCounts.of(train, z, priors.numTopics());
        SparseLdaSampler sampler = SparseLdaSampler.of(priors, start);
        long t0 = System.nanoTime();
        for (int s = 0; s < sweeps; s++) {
            sampler.sweep(train, z, streams.stream(AdLda.SWEEP_STREAM, s, 0));
            if ((s + 1) % 50 == 0 || s == 0) {
                double secs = (System.nanoTime() - t0) / 1e9;
                System.out.printf(Locale.ROOT, "  sparkmc sweep %d: %.1f s, %.2f M tokens/s%n", s + 1, secs,
                        (double) train.numTokens() * (s + 1) / secs / 1e6);
            }
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        TopicWordCounts counts = sampler.counts();
        report("sparkmc SparseLDA", train, heldOut, priors, sweeps, secs, counts,
                LdaLogLikelihood.joint(train, z, counts, priors), seed);
        System.out.printf(Locale.ROOT, "  state: %d bytes/token (int word id + char topic); topic-word counts: %d"
                + " non-zero cells, %d bytes (sparse packed) vs %d bytes dense int W*K%n", 6, counts.nonZeros(),
                counts.payloadBytes(), 4L * train.vocabularySize() * priors.numTopics());
    }

    private static void runMallet(Corpus train, Corpus heldOut, LdaPriors priors, int sweeps, long seed)
            throws Exception {
        Logger.getLogger("cc.mallet").setLevel(Level.WARNING);
        ParallelTopicModel.logger.setLevel(Level.WARNING);
        int k = priors.numTopics();
        int w = train.vocabularySize();
        Alphabet alphabet = new Alphabet();
        for (int v = 0; v < w; v++) {
            alphabet.lookupIndex("w" + v, true);
        }
        InstanceList instances = new InstanceList(alphabet, null);
        for (int d = 0; d < train.numDocuments(); d++) {
            int[] tokens = java.util.Arrays.copyOfRange(train.words(), train.docStart(d), train.docEnd(d));
            instances.add(new Instance(new FeatureSequence(alphabet, tokens), null, "doc" + train.docId(d), null));
        }
        ParallelTopicModel model = new ParallelTopicModel(k, priors.alpha() * k, priors.beta());
        model.setNumThreads(1);
        model.setNumIterations(sweeps);
        model.setOptimizeInterval(0);
        model.setBurninPeriod(0);
        model.setSymmetricAlpha(true);
        model.setTopicDisplay(Integer.MAX_VALUE, 0);
        model.setRandomSeed((int) seed);
        model.printLogLikelihood = false;
        model.addInstances(instances);
        long t0 = System.nanoTime();
        model.estimate();
        double secs = (System.nanoTime() - t0) / 1e9;
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
        report("Mallet 2.0.8", train, heldOut, priors, sweeps, secs, counts,
                LdaLogLikelihood.joint(train, z, counts, priors), seed);
        System.out.printf(Locale.ROOT, "  Mallet's own modelLogLikelihood(): %.1f%n", model.modelLogLikelihood());
    }

    private static void report(String name, Corpus train, Corpus heldOut, LdaPriors priors, int sweeps, double secs,
            TopicWordCounts counts, double logLik, long seed) {
        long t0 = System.nanoTime();
        DocumentCompletion.Result r = DocumentCompletion.standard().evaluate(counts, priors, heldOut,
                new RandomStreams(seed + 1000));
        double evalSecs = (System.nanoTime() - t0) / 1e9;
        System.out.printf(Locale.ROOT, "%-18s K=%d sweeps=%d: %.2f s, %.2f M tokens/s; log p(w,z)=%.1f (%.4f per token);"
                + " completion perplexity %.1f on %d tokens (eval %.1f s)%n", name, priors.numTopics(), sweeps, secs,
                (double) train.numTokens() * sweeps / secs / 1e6, logLik, logLik / train.numTokens(), r.perplexity(),
                r.scoredTokens(), evalSecs);
    }
}
