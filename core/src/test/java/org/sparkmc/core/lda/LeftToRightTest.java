package org.sparkmc.core.lda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.numbers.gamma.LogGamma;
import org.apache.commons.statistics.distribution.ChiSquaredDistribution;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.smc.ResamplingScheme;

/**
 * The left-to-right particle estimate of p(w_d | φ, α) is unbiased: its mean over many independent runs matches the
 * exact value, summed over all K^N topic assignments with the Dirichlet–multinomial prior in closed form.
 */
class LeftToRightTest {
    private static final int K = 3;
    private static final double ALPHA = 0.4;
    /** Word-major φ over 5 words: peaked topics, so that particles' weights spread and resampling happens. */
    private static final double[] PHI = {
        0.70, 0.05, 0.10,
        0.10, 0.60, 0.05,
        0.05, 0.20, 0.10,
        0.10, 0.05, 0.05,
        0.05, 0.10, 0.70,
    };
    private static final int[] DOC = {0, 1, 1, 3, 4, 2, 4};

    /** log p(w) = log Σ_z Π_i φ_{z_i,w_i} · Γ(Kα)/Γ(N+Kα) Π_k Γ(n_k+α)/Γ(α), enumerating z. */
    private static double exactLogProbability(int[] words) {
        int n = words.length;
        int configurations = (int) Math.pow(K, n);
        double total = 0;
        int[] z = new int[n];
        for (int c = 0; c < configurations; c++) {
            int code = c;
            int[] counts = new int[K];
            double logLik = 0;
            for (int i = 0; i < n; i++) {
                z[i] = code % K;
                code /= K;
                counts[z[i]]++;
                logLik += Math.log(PHI[words[i] * K + z[i]]);
            }
            double logPrior = LogGamma.value(K * ALPHA) - LogGamma.value(n + K * ALPHA);
            for (int k = 0; k < K; k++) {
                logPrior += LogGamma.value(counts[k] + ALPHA) - LogGamma.value(ALPHA);
            }
            total += Math.exp(logLik + logPrior);
        }
        return Math.log(total);
    }

    /**
     * M = 100,000 independent estimates p̂ (not logs), for R = 1, R = 8 with two resampling schemes, and R = 8 with
     * two Gibbs moves after each resampling: |mean − p| / (sd/√M) &lt; 5 fails by chance with probability ≈ 6e-7 per
     * case (CLT; p̂ is bounded, so its variance is finite). Each case's standard error is also required to be below
     * 0.5% of p, so a bias of 2.5% or more could not pass.
     */
    @Test
    void meanOfTheEstimatesIsTheExactProbability() {
        double exact = Math.exp(exactLogProbability(DOC));
        TopicInference topics = TopicInference.ofPhi(PHI, K, ALPHA, 0, 1);
        RandomStreams streams = new RandomStreams(11);
        int m = 100_000;
        LeftToRight[] estimators = {LeftToRight.of(1, ResamplingScheme.SYSTEMATIC),
            LeftToRight.of(8, ResamplingScheme.SYSTEMATIC), LeftToRight.of(8, ResamplingScheme.MULTINOMIAL),
            LeftToRight.of(8, ResamplingScheme.SYSTEMATIC, 2)};
        double[][] estimates = new double[estimators.length][m];
        for (int e = 0; e < estimators.length; e++) {
            double sum = 0;
            double squares = 0;
            for (int run = 0; run < m; run++) {
                double p = Math.exp(estimators[e].logProbability(topics, DOC, 0, DOC.length,
                        streams.stream("test", run)));
                estimates[e][run] = p;
                sum += p;
                squares += p * p;
            }
            double mean = sum / m;
            double se = Math.sqrt((squares / m - mean * mean) / (m - 1));
            assertTrue(Math.abs(mean - exact) < 5 * se, "case " + e + ": mean " + mean + " vs exact " + exact
                    + ", standard error " + se);
            assertTrue(se < 0.005 * exact, "case " + e + ": standard error " + se + " of " + exact);
        }
        // The two schemes see the same streams, so they can only differ where resampling happened (8.5% of runs).
        int differ = 0;
        for (int run = 0; run < m; run++) {
            if (estimates[1][run] != estimates[2][run]) {
                differ++;
            }
        }
        assertTrue(differ > m / 20, "resampling changed only " + differ + " of " + m + " estimates");
        // Resample-move: the Gibbs moves after each resampling change the estimates of the same streams.
        int moved = 0;
        for (int run = 0; run < m; run++) {
            if (estimates[1][run] != estimates[3][run]) {
                moved++;
            }
        }
        assertTrue(moved > m / 20, "the moves changed only " + moved + " of " + m + " estimates");
    }

    /**
     * The resample–move kernel leaves p(z | w, φ, α) invariant: 200,000 independent exact posterior draws of the
     * topics of a 4-token document (by enumeration of its 81 assignments), each followed by one Gibbs sweep, are
     * still distributed exactly as the posterior: chi-square over the 81 assignments (those expected fewer than 5
     * times pooled) below its 1 − 10^-6 quantile (false failure 10^-6).
     */
    @Test
    void gibbsMoveLeavesThePosteriorInvariant() {
        int[] doc = {0, 4, 1, 0};
        int n = doc.length;
        int states = (int) Math.pow(K, n);
        double[] posterior = new double[states];
        double total = 0;
        for (int c = 0; c < states; c++) {
            int[] z = decode(c, n);
            int[] counts = new int[K];
            double logP = 0;
            for (int i = 0; i < n; i++) {
                counts[z[i]]++;
                logP += Math.log(PHI[doc[i] * K + z[i]]);
            }
            for (int k = 0; k < K; k++) {
                logP += LogGamma.value(counts[k] + ALPHA);
            }
            posterior[c] = Math.exp(logP);
            total += posterior[c];
        }
        double[] cdf = new double[states];
        double acc = 0;
        for (int c = 0; c < states; c++) {
            posterior[c] /= total;
            acc += posterior[c];
            cdf[c] = acc;
        }
        double[] rows = new double[n * K];
        int[] rowAt = new int[n];
        for (int i = 0; i < n; i++) {
            System.arraycopy(PHI, doc[i] * K, rows, i * K, K);
            rowAt[i] = i * K;
        }
        int draws = 200_000;
        long[] tally = new long[states];
        var rng = new RandomStreams(21).stream("move");
        double[] cumulative = new double[K];
        for (int d = 0; d < draws; d++) {
            double u = rng.nextDouble();
            int c = 0;
            while (c < states - 1 && cdf[c] <= u) {
                c++;
            }
            int[] z = decode(c, n);
            int[] counts = new int[K];
            for (int t : z) {
                counts[t]++;
            }
            TopicInference.gibbsSweep(counts, 0, z, 0, n, rows, rowAt, ALPHA, cumulative, rng);
            int code = 0;
            for (int i = n - 1; i >= 0; i--) {
                code = code * K + z[i];
            }
            tally[code]++;
        }
        // Cells expected fewer than 5 times are pooled into one, so the chi-square approximation holds.
        double chi2 = 0;
        int bins = 0;
        double pooledExpected = 0;
        long pooledObserved = 0;
        for (int c = 0; c < states; c++) {
            double expected = draws * posterior[c];
            if (expected < 5) {
                pooledExpected += expected;
                pooledObserved += tally[c];
            } else {
                chi2 += (tally[c] - expected) * (tally[c] - expected) / expected;
                bins++;
            }
        }
        if (pooledExpected > 0) {
            chi2 += (pooledObserved - pooledExpected) * (pooledObserved - pooledExpected) / pooledExpected;
            bins++;
        }
        double critical = ChiSquaredDistribution.of(bins - 1).inverseSurvivalProbability(1e-6);
        assertTrue(chi2 < critical, "chi-square " + chi2 + " >= " + critical);
    }

    private static int[] decode(int code, int n) {
        int[] z = new int[n];
        for (int i = 0; i < n; i++) {
            z[i] = code % K;
            code /= K;
        }
        return z;
    }

    /** One token: every particle's weight is Σ_k φ_{k,w} α/(Kα), exactly the probability. */
    @Test
    void oneTokenIsExact() {
        TopicInference topics = TopicInference.ofPhi(PHI, K, ALPHA, 0, 1);
        double estimate = LeftToRight.of(5, ResamplingScheme.SYSTEMATIC).logProbability(topics, new int[] {4},
                0, 1, new RandomStreams(1).stream("x"));
        assertEquals(Math.log((0.05 + 0.10 + 0.70) / 3), estimate, 1e-14);
    }

    /**
     * Over a corpus: the sum of per-document estimates, each from the document's own stream (a document scores the
     * same alone or with others), and the counts and explicit-φ entry points agree bit for bit.
     */
    @Test
    void corpusScoreIsTheSumOfItsDocuments() {
        LdaFixtures.PlantedSplit planted = LdaFixtures.plantedSplit(5, 10, 100, 30, 4);
        Corpus heldOut = planted.heldOut();
        LdaPriors priors = new LdaPriors(5, 0.1, 0.01);
        TopicWordCounts counts = planted.counts();
        LeftToRight l2r = LeftToRight.of(10, ResamplingScheme.SYSTEMATIC);
        RandomStreams streams = new RandomStreams(4);
        DocumentCompletion.Result whole = l2r.evaluate(counts, priors, heldOut, streams);
        assertEquals(whole, l2r.evaluate(LdaFixtures.phiOf(counts, 0.01), 5, 0.1, heldOut, streams));
        double sum = 0;
        for (int d = 0; d < heldOut.numDocuments(); d++) {
            int id = heldOut.docId(d);
            sum += l2r.evaluate(counts, priors, heldOut.selectByDocId(x -> x == id), streams).logLikelihood();
        }
        assertEquals(sum, whole.logLikelihood(), 1e-9 * Math.abs(sum));
        assertEquals(heldOut.numTokens(), whole.scoredTokens());
        assertEquals(Math.exp(-whole.logLikelihood() / heldOut.numTokens()), whole.perplexity(), 1e-12);
        // Planted topics of 10 words each, documents mostly about one or two: far below the 50-word vocabulary.
        assertTrue(whole.perplexity() < 20, "perplexity " + whole.perplexity());
        assertThrows(IllegalArgumentException.class, () -> LeftToRight.of(0, ResamplingScheme.SYSTEMATIC));
        assertThrows(IllegalArgumentException.class, () -> LeftToRight.of(5, ResamplingScheme.SYSTEMATIC, -1));
    }
}
