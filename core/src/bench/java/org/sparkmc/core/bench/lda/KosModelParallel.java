package org.sparkmc.core.bench.lda;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import org.sparkmc.core.lda.AdLdaDriver;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.core.lda.DocumentCompletion;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.ModelParallelDriver;
import org.sparkmc.core.lda.PosteriorMeanTopics;
import org.sparkmc.core.lda.TopicWordCounts;
import org.sparkmc.core.lda.UciBagOfWords;
import org.sparkmc.core.random.RandomStreams;

/**
 * Model-parallel LDA against AD-LDA on KOS, one machine: AD-LDA with P document blocks (the broadcast mode's chain),
 * and model-parallel LDA with P blocks and P word slices, its topic totals synchronised after every sub-step or after
 * every sweep; K=100 by default ({@code -Dk}), α=0.5 ({@code -Dalpha}), β=0.01, then document-completion perplexity
 * on the held-out 10% (docId % 10 == 0) of the final state and of the posterior mean over the last
 * {@code -Dsamples=S} states every {@code -Devery=E} sweeps (defaults 20 and 5). Arguments: {@code sweeps seed P}.
 */
public final class KosModelParallel {
    private KosModelParallel() {
    }

    /** A chain as the benchmark drives it. */
    /** What the comparison needs of a chain: a sweep, its counts and its log p(w, z). */
    private record Chain(Runnable sweep, Supplier<TopicWordCounts> counts, DoubleSupplier logLikelihood) {
    }

    public static void main(String[] args) throws Exception {
        int sweeps = Integer.parseInt(args[0]);
        long seed = Long.parseLong(args[1]);
        int p = Integer.parseInt(args[2]);
        int k = Integer.getInteger("k", 100);
        Path dir = Path.of(System.getProperty("sparkmc.shared.data", "/work/shared/data"), "kos");
        Corpus kos;
        try (InputStream in = Files.newInputStream(dir.resolve("docword.kos.txt.gz"))) {
            kos = UciBagOfWords.readDocword(in, "docword.kos.txt.gz").corpus();
        }
        Corpus train = kos.selectByDocId(id -> id % 10 != 0);
        Corpus heldOut = kos.selectByDocId(id -> id % 10 == 0);
        LdaPriors priors = new LdaPriors(k, Double.parseDouble(System.getProperty("alpha", "0.5")), 0.01);
        run("AD-LDA, " + p + " blocks", () -> {
            AdLdaDriver d = AdLdaDriver.start(train, p, priors, new RandomStreams(seed));
            return new Chain(d::sweep, d::counts, d::logLikelihood);
        }, train, heldOut, priors, sweeps, seed);
        for (ModelParallelDriver.TotalsSync sync : ModelParallelDriver.TotalsSync.values()) {
            run("model-parallel, " + p + " slices, totals per " + sync, () -> {
                ModelParallelDriver d = ModelParallelDriver.start(train, p, priors, new RandomStreams(seed), sync);
                return new Chain(d::sweep, d::counts, d::logLikelihood);
            }, train, heldOut, priors, sweeps, seed);
        }
    }

    private static void run(String name, Supplier<Chain> start, Corpus train, Corpus heldOut, LdaPriors priors,
            int sweeps, long seed) {
        int samples = Integer.getInteger("samples", 20);
        int every = Integer.getInteger("every", 5);
        long t0 = System.nanoTime();
        Chain chain = start.get();
        PosteriorMeanTopics mean = PosteriorMeanTopics.of(priors.numTopics(), train.vocabularySize(), priors.beta());
        for (int s = 1; s <= sweeps; s++) {
            chain.sweep().run();
            if ((sweeps - s) % every == 0 && sweeps - s < samples * every) {
                mean.add(chain.counts().get());
            }
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        double last = DocumentCompletion.standard().evaluate(chain.counts().get(), priors, heldOut,
                new RandomStreams(seed + 1000)).perplexity();
        double averaged = DocumentCompletion.standard().evaluate(mean.phi(), priors.numTopics(), priors.alpha(),
                heldOut, new RandomStreams(seed + 1000)).perplexity();
        System.out.printf(Locale.ROOT, "%s, sweeps=%d seed=%d: log p(w,z)/token=%.4f, completion perplexity %.1f "
                + "(final state), %.1f (posterior mean of %d states every %d) (%.1f s)%n", name, sweeps, seed,
                chain.logLikelihood().getAsDouble() / train.numTokens(), last, averaged, mean.samples(), every, secs);
    }
}
