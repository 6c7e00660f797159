package org.sparkmc.core.bench.lda;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.sparkmc.core.lda.AdLdaDriver;
import org.sparkmc.core.lda.BestOfChains;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.PlantedCorpus;
import org.sparkmc.core.lda.PosteriorMeanTopics;
import org.sparkmc.core.random.RandomStreams;

/**
 * Planted-topic recovery of collapsed Gibbs LDA, one chain against the best of several by training log-likelihood
 * ({@link BestOfChains}), on {@code generate-lda --preset small} with its default seed (20 planted topics, the
 * documents whose id is a multiple of 10 held out as the {@code lda} job does), K = 20, β = 0.01, one block, one
 * thread. Arguments: {@code [seeds] [chains] [alpha] [first seed] [sweeps]} (10, 8, 0.1, 1, 200).
 *
 * <p>Every chain c of every run seed s runs from {@link BestOfChains#chainSeed}(s, c) for the sweeps; a line per
 * chain gives its score (mean log p(w, z) per token over the 10 sweeps ending at 50, 100, sweeps) and the planted
 * topics it found (a learned topic holds 9 of the planted topic's 10 top words, {@link PlantedCorpus#found}) with
 * the final state's topics and with the posterior mean over the states after sweeps/2 + 5, …, sweeps every 5, with
 * the ids of the topics missed. Then, per seed, what best of the first C chains chose for C = 1, 2, 4, 8 (up to the
 * chains run), scored after 100 sweeps and after all: a chain continues identically after the choice, so its
 * figures are those of its line.
 */
public final class PlantedRecovery {
    private PlantedRecovery() {
    }

    private record Chain(double[] scores, int finalFound, int meanFound) {
    }

    public static void main(String[] args) {
        int seeds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int chains = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        double alpha = args.length > 2 ? Double.parseDouble(args[2]) : 0.1;
        long first = args.length > 3 ? Long.parseLong(args[3]) : 1;
        int sweeps = args.length > 4 ? Integer.parseInt(args[4]) : 200;
        PlantedCorpus model = PlantedCorpus.of(new PlantedCorpus.Settings(2_000, 2_000, 20, 150, 0.1, 1.0, 0.1,
                20261125L));
        Corpus corpus = model.trainingCorpus(10);
        LdaPriors priors = new LdaPriors(20, alpha, 0.01);
        int[] at = {50, 100, sweeps};
        System.out.printf(Locale.ROOT, "# %d training tokens, K=20, alpha=%s, %d sweeps%n", corpus.numTokens(), alpha,
                sweeps);
        List<String> summary = new ArrayList<>();
        for (long seed = first; seed < first + seeds; seed++) {
            List<Chain> runs = new ArrayList<>();
            for (int c = 0; c < chains; c++) {
                runs.add(chain(model, corpus, priors, BestOfChains.chainSeed(seed, c), sweeps, at, seed, c));
            }
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "seed %d:", seed));
            for (int c = 1; c <= chains; c *= 2) {
                for (int when = 1; when < at.length; when++) {
                    int best = 0;
                    for (int j = 1; j < c; j++) {
                        if (runs.get(j).scores()[when] > runs.get(best).scores()[when]) {
                            best = j;
                        }
                    }
                    line.append(String.format(Locale.ROOT, "  C=%d@%d chain %d found %d/%d", c, at[when], best,
                            runs.get(best).finalFound(), runs.get(best).meanFound()));
                }
            }
            summary.add(line.toString());
            System.out.println(line);
        }
        System.out.println("# best of C chains scored at sweep N: the chosen chain, planted topics found by its final "
                + "state / by its posterior mean");
        summary.forEach(System.out::println);
    }

    private static Chain chain(PlantedCorpus model, Corpus corpus, LdaPriors priors, long chainSeed, int sweeps,
            int[] at, long seed, int c) {
        AdLdaDriver driver = AdLdaDriver.start(corpus, 1, priors, new RandomStreams(chainSeed));
        PosteriorMeanTopics mean = PosteriorMeanTopics.of(20, corpus.vocabularySize(), priors.beta());
        double[] perToken = new double[sweeps + 1];
        for (int s = 1; s <= sweeps; s++) {
            driver.sweep();
            perToken[s] = driver.logLikelihood() / corpus.numTokens();
            if (s > sweeps / 2 && s % 5 == 0) {
                mean.add(driver.counts());
            }
        }
        double[] scores = new double[at.length];
        for (int i = 0; i < at.length; i++) {
            scores[i] = BestOfChains.score(Arrays.copyOfRange(perToken, 1, at[i] + 1));
        }
        PosteriorMeanTopics last = PosteriorMeanTopics.of(20, corpus.vocabularySize(), priors.beta());
        last.add(driver.counts());
        String finalMissed = missed(model.found(last.phi(), 20, 10, 9));
        String meanMissed = missed(model.found(mean.phi(), 20, 10, 9));
        System.out.printf(Locale.ROOT, "seed %d chain %d score@50/100/%d %.5f %.5f %.5f  final %s  mean %s%n", seed, c,
                sweeps, scores[0], scores[1], scores[2], finalMissed, meanMissed);
        System.out.flush();
        return new Chain(scores, count(model.found(last.phi(), 20, 10, 9)), count(model.found(mean.phi(), 20, 10,
                9)));
    }

    private static int count(boolean[] found) {
        int n = 0;
        for (boolean f : found) {
            n += f ? 1 : 0;
        }
        return n;
    }

    private static String missed(boolean[] found) {
        StringBuilder s = new StringBuilder().append(count(found)).append("/20");
        List<Integer> missed = new ArrayList<>();
        for (int t = 0; t < found.length; t++) {
            if (!found[t]) {
                missed.add(t);
            }
        }
        return missed.isEmpty() ? s.toString() : s.append(" missed ").append(missed).toString();
    }
}
