package org.sparkmc.core.bench.lda;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.sparkmc.core.lda.AdLdaDriver;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.core.lda.DocumentCompletion;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.PosteriorMeanTopics;
import org.sparkmc.core.lda.UciBagOfWords;
import org.sparkmc.core.random.RandomStreams;

/**
 * The AD-LDA property on KOS (Newman et al. 2009): the single-machine AD-LDA driver with B document blocks
 * (B = 1, 2, 4, 8 by default), K=100, α=50/K, β=0.01, the given number of sweeps, then document-completion perplexity
 * on the held-out 10% (docId % 10 == 0). Arguments: {@code [sweeps] [seed] [blocks...]}.
 *
 * <p>Two scores per run: of the final state's topics, and of the posterior-mean topics ({@link PosteriorMeanTopics})
 * over the last {@code -Dsamples=S} states saved every {@code -Devery=E} sweeps (defaults 20 and 5), as Newman et al.
 * score AD-LDA.
 */
public final class KosAdLdaBlocks {
    private KosAdLdaBlocks() {
    }

    public static void main(String[] args) throws Exception {
        int sweeps = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 1;
        int[] blocks = {1, 2, 4, 8};
        if (args.length > 2) {
            blocks = new int[args.length - 2];
            for (int i = 2; i < args.length; i++) {
                blocks[i - 2] = Integer.parseInt(args[i]);
            }
        }
        Path dir = Path.of(System.getProperty("sparkmc.shared.data", "/work/shared/data"), "kos");
        Corpus kos;
        try (InputStream in = Files.newInputStream(dir.resolve("docword.kos.txt.gz"))) {
            kos = UciBagOfWords.readDocword(in, "docword.kos.txt.gz").corpus();
        }
        Corpus train = kos.selectByDocId(id -> id % 10 != 0);
        Corpus heldOut = kos.selectByDocId(id -> id % 10 == 0);
        LdaPriors priors = LdaPriors.griffithsSteyvers(100, 0.01);
        int samples = Integer.getInteger("samples", 20);
        int every = Integer.getInteger("every", 5);
        for (int b : blocks) {
            long t0 = System.nanoTime();
            AdLdaDriver driver = AdLdaDriver.start(train, b, priors, new RandomStreams(seed));
            PosteriorMeanTopics mean = PosteriorMeanTopics.of(100, train.vocabularySize(), priors.beta());
            for (int s = 1; s <= sweeps; s++) {
                driver.sweep();
                if ((sweeps - s) % every == 0 && sweeps - s < samples * every) {
                    mean.add(driver.counts());
                }
            }
            double secs = (System.nanoTime() - t0) / 1e9;
            double perplexity = DocumentCompletion.standard().evaluate(driver.counts(), priors, heldOut,
                    new RandomStreams(seed + 1000)).perplexity();
            double averaged = DocumentCompletion.standard().evaluate(mean.phi(), 100, priors.alpha(), heldOut,
                    new RandomStreams(seed + 1000)).perplexity();
            System.out.printf(Locale.ROOT, "blocks=%d sweeps=%d seed=%d: log p(w,z)/token=%.4f, completion perplexity"
                    + " %.1f (final state), %.1f (posterior mean of %d states, every %d sweeps) (%.1f s, blocks run"
                    + " in sequence)%n", b, sweeps, seed, driver.logLikelihood() / train.numTokens(), perplexity,
                    averaged, mean.samples(), every, secs);
        }
    }
}
