package org.sparkmc.core.lda;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.PermutationSampler;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.sampling.distribution.AhrensDieterMarsagliaTsangGammaSampler;
import org.apache.commons.rng.sampling.distribution.AliasMethodDiscreteSampler;
import org.apache.commons.rng.sampling.distribution.PoissonSampler;
import org.apache.commons.rng.sampling.distribution.SharedStateDiscreteSampler;
import org.sparkmc.core.random.Categorical;
import org.sparkmc.core.random.RandomStreams;

/**
 * A synthetic corpus drawn from the LDA generative model (Blei, Ng &amp; Jordan 2003) with K planted topics and a
 * Zipf-like vocabulary, as a pure function of (seed, document id): document d's words do not depend on which
 * other documents are generated, in what order, or on how they are cut into partitions.
 *
 * <p><b>The planted topics.</b> Words have Zipf ranks r = 0 … V−1 with weight z_r ∝ (r+1)^−s. Rank r belongs to
 * topic r mod K, so every topic owns about V/K words spread over the whole range of frequencies (each gets a share
 * of the head and of the tail), and word ids are a seeded random permutation of the ranks (as in real UCI files,
 * whose ids are alphabetical and say nothing of frequency). Topic k is
 * φ_k = (1−ε)·ψ_k + ε·b, where ψ_k ~ Dirichlet(S_k·π_k) over topic k's S_k own words, π_k being the Zipf weights
 * restricted to them and normalised (a concentration of 1 a word on average: the head keeps its Zipf order, the
 * tail is sparse and random), and b is the Zipf distribution over all V words (the shared background, weight
 * ε = {@code background}). Why this design: the own words make the topics well separated (their top words are
 * disjoint, so "a learned topic holds 9 of a planted topic's 10 top words" is a sharp test), the background makes
 * them overlap as real topics do (frequent words everywhere), and since each topic owns every K-th rank, the
 * corpus-wide word frequency (1/K)·Σ_k φ_k stays close to the Zipf law. A Dirichlet over one shared Zipf base
 * measure would give the same frequent words at the top of every topic instead. Sampling needs O(V) memory in all
 * (one alias table over the background, one over each topic's own words), not K·V.
 *
 * <p><b>A document</b> d (1-based) draws, from the stream ("planted-corpus-doc", d): its length
 * 1 + Poisson(G·(L−1)) with G ~ Gamma(2, 1/2) (a negative binomial of mean L and coefficient of variation about
 * 0.7, as real document lengths vary much more than a Poisson's), θ_d ~ Dirichlet(α) (symmetric), and each token's
 * topic from θ_d, its word from φ_topic (background with probability ε, else the topic's own words). The topics
 * come from the streams ("planted-corpus-topic", k) and the permutation from ("planted-corpus-words").
 */
public final class PlantedCorpus {
    /** Shape of the gamma mixing a document's Poisson length: its lengths' squared coefficient of variation ≈ 1/2. */
    public static final double LENGTH_SHAPE = 2;
    /** The largest mean document length taken. */
    public static final double MAX_MEAN_LENGTH = 1e7;
    /** The largest α taken, as {@code lda} takes: beyond it θ is uniform to double precision, and gammas overflow. */
    public static final double MAX_ALPHA = 1e6;
    /** The largest Zipf exponent taken. */
    public static final double MAX_ZIPF_EXPONENT = 10;

    /**
     * The generative model's settings.
     *
     * @param documents D, document ids 1 … D
     * @param vocabularySize V
     * @param topics K (at most V: every topic owns at least one word)
     * @param meanLength L ≥ 1, the mean document length in tokens
     * @param alpha the symmetric Dirichlet concentration of θ_d, &gt; 0
     * @param zipfExponent s ≥ 0 of the Zipf ranks
     * @param background ε ∈ [0, 1), the weight of the shared Zipf background in every topic
     * @param seed the root seed
     */
    public record Settings(long documents, int vocabularySize, int topics, double meanLength, double alpha,
            double zipfExponent, double background, long seed) implements Serializable {
        public Settings {
            require(documents >= 1 && documents <= Integer.MAX_VALUE, "documents must be in [1, 2^31 - 1], is "
                    + documents);
            require(vocabularySize >= 1, "vocabulary size must be ≥ 1, is " + vocabularySize);
            require(topics >= 1 && topics <= vocabularySize, "topics must be in [1, vocabulary size "
                    + vocabularySize + "], is " + topics);
            require(meanLength >= 1 && meanLength <= MAX_MEAN_LENGTH, "mean length must be in [1, 1e7], is "
                    + meanLength);
            require(alpha > 0 && alpha <= MAX_ALPHA, "alpha must be in (0, 1e6], is " + alpha);
            require(zipfExponent >= 0 && zipfExponent <= MAX_ZIPF_EXPONENT, "Zipf exponent must be in [0, 10], is "
                    + zipfExponent);
            require(background >= 0 && background < 1, "background must be in [0, 1), is " + background);
        }

        private static void require(boolean ok, String message) {
            if (!ok) {
                throw new IllegalArgumentException(message);
            }
        }
    }

    /**
     * One generated document: its word ids (0-based, increasing) with their counts, and its length.
     *
     * @param id the 1-based document id
     * @param words distinct word ids, increasing
     * @param counts each word's count (≥ 1)
     * @param length Σ counts
     */
    public record Document(long id, int[] words, int[] counts, int length) {
    }

    private final Settings settings;
    private final RandomStreams streams;
    /** Word id of each Zipf rank. */
    private final int[] wordOfRank;
    /** b: the background over word ids. */
    private final double[] background;
    /**
     * Bytes a model holds per vocabulary word, at the least: the rank permutation, the background distribution, the
     * word's place among its topic's own words and ψ there, and the scratch (4 + 8 + 4 + 8 + 4), alias tables aside.
     */
    public static final int LEAST_BYTES_PER_WORD = 28;
    /** Each topic's own words (ids) and ψ_k over them. */
    private final int[][] ownWords;
    private final double[][] ownPsi;
    private final SharedStateDiscreteSampler backgroundSampler;
    private final SharedStateDiscreteSampler[] ownSamplers;
    /** Scratch for aggregating one document's tokens: not thread-safe, as one generator serves one task. */
    private final int[] scratch;

    private PlantedCorpus(Settings settings) {
        this.settings = settings;
        this.streams = new RandomStreams(settings.seed());
        int v = settings.vocabularySize();
        int k = settings.topics();
        double[] zipf = new double[v];
        for (int r = 0; r < v; r++) {
            zipf[r] = Math.pow(r + 1, -settings.zipfExponent());
        }
        wordOfRank = PermutationSampler.natural(v);
        PermutationSampler.shuffle(streams.stream("planted-corpus-words"), wordOfRank);
        double zipfSum = Arrays.stream(zipf).sum();
        background = new double[v];
        for (int r = 0; r < v; r++) {
            background[wordOfRank[r]] = zipf[r] / zipfSum;
        }
        ownWords = new int[k][];
        ownPsi = new double[k][];
        ownSamplers = new SharedStateDiscreteSampler[k];
        UniformRandomProvider build = streams.stream("planted-corpus-tables");
        for (int t = 0; t < k; t++) {
            UniformRandomProvider rng = streams.stream("planted-corpus-topic", t);
            int own = (v - t + k - 1) / k;
            ownWords[t] = new int[own];
            double restricted = 0;
            for (int j = 0; j < own; j++) {
                restricted += zipf[t + j * k];
            }
            double[] psi = new double[own];
            double sum = 0;
            while (sum == 0) {
                for (int j = 0; j < own; j++) {
                    ownWords[t][j] = wordOfRank[t + j * k];
                    double shape = own * zipf[t + j * k] / restricted;
                    psi[j] = AhrensDieterMarsagliaTsangGammaSampler.of(rng, shape, 1).sample();
                    sum += psi[j];
                }
            }
            for (int j = 0; j < own; j++) {
                psi[j] /= sum;
            }
            ownPsi[t] = psi;
            ownSamplers[t] = AliasMethodDiscreteSampler.of(build, psi);
        }
        backgroundSampler = AliasMethodDiscreteSampler.of(build, background);
        scratch = new int[v];
    }

    /** The model for {@code settings}: its topics drawn from the seed, O(V) time and memory. */
    public static PlantedCorpus of(Settings settings) {
        return new PlantedCorpus(settings);
    }

    public Settings settings() {
        return settings;
    }

    /** φ_k over the whole vocabulary (word ids 0 … V−1). */
    public double[] phi(int topic) {
        double eps = settings.background();
        double[] phi = new double[background.length];
        for (int w = 0; w < phi.length; w++) {
            phi[w] = eps * background[w];
        }
        for (int j = 0; j < ownWords[topic].length; j++) {
            phi[ownWords[topic][j]] += (1 - eps) * ownPsi[topic][j];
        }
        return phi;
    }

    /** The expected share of word w among all tokens, (1/K)·Σ_k φ_k(w) (θ_d is symmetric). */
    public double[] marginal() {
        int k = settings.topics();
        double[] m = new double[background.length];
        for (int t = 0; t < k; t++) {
            double[] phi = phi(t);
            for (int w = 0; w < m.length; w++) {
                m[w] += phi[w] / k;
            }
        }
        return m;
    }

    /** The n most probable word ids of φ_k, most probable first (ties by word id). */
    public int[] topWords(int topic, int n) {
        return topOf(phi(topic), n);
    }

    /** The n largest entries' indices, largest first, ties by index. */
    private static int[] topOf(double[] phi, int n) {
        return java.util.stream.IntStream.range(0, phi.length).boxed()
                .sorted((a, b) -> phi[a] != phi[b] ? Double.compare(phi[b], phi[a]) : Integer.compare(a, b))
                .limit(n).mapToInt(Integer::intValue).toArray();
    }

    /**
     * The documents whose id is not a multiple of {@code heldOutEvery} (all of them when it is 0), as the {@code lda}
     * job trains on them: each document's tokens in increasing word id, as its UCI lines expand. For tests and
     * experiments in one JVM; O(tokens) memory.
     */
    public Corpus trainingCorpus(int heldOutEvery) {
        if (heldOutEvery < 0) {
            throw new IllegalArgumentException("heldOutEvery must be ≥ 0, is " + heldOutEvery);
        }
        int n = (int) settings.documents();
        int[] starts = new int[n + 1];
        int[] ids = new int[n];
        int[] words = new int[Math.max(16, (int) Math.min(Integer.MAX_VALUE - 8, (long) (n * settings.meanLength())))];
        int docs = 0;
        int tokens = 0;
        for (int id = 1; id <= n; id++) {
            if (heldOutEvery > 0 && id % heldOutEvery == 0) {
                continue;
            }
            Document doc = document(id);
            if (tokens + doc.length() > words.length) {
                words = Arrays.copyOf(words, Math.max(words.length * 2, tokens + doc.length()));
            }
            for (int j = 0; j < doc.words().length; j++) {
                Arrays.fill(words, tokens, tokens + doc.counts()[j], doc.words()[j]);
                tokens += doc.counts()[j];
            }
            ids[docs++] = id;
            starts[docs] = tokens;
        }
        return Corpus.of(Arrays.copyOf(starts, docs + 1), Arrays.copyOf(words, tokens), Arrays.copyOf(ids, docs),
                settings.vocabularySize());
    }

    /**
     * Which planted topics a learned model found: planted topic k is found when some learned topic's {@code top}
     * most probable words hold at least {@code needed} of planted φ_k's {@code top} most probable words (ties by word
     * id, both sides).
     *
     * @param phi the learned topics, word-major {@code phi[w * learnedTopics + k]} ({@link PosteriorMeanTopics#phi})
     */
    public boolean[] found(double[] phi, int learnedTopics, int top, int needed) {
        int v = settings.vocabularySize();
        if (learnedTopics < 1 || phi.length != (long) v * learnedTopics || top < 1 || top > v || needed > top) {
            throw new IllegalArgumentException("need " + v + " × K learned φ, 1 ≤ top ≤ V and needed ≤ top");
        }
        List<Set<Integer>> learned = new ArrayList<>(learnedTopics);
        for (int k = 0; k < learnedTopics; k++) {
            double[] row = new double[v];
            for (int w = 0; w < v; w++) {
                row[w] = phi[w * learnedTopics + k];
            }
            Set<Integer> words = new HashSet<>();
            for (int w : topOf(row, top)) {
                words.add(w);
            }
            learned.add(words);
        }
        boolean[] found = new boolean[settings.topics()];
        for (int t = 0; t < found.length; t++) {
            int[] planted = topWords(t, top);
            for (Set<Integer> words : learned) {
                int shared = 0;
                for (int w : planted) {
                    shared += words.contains(w) ? 1 : 0;
                }
                found[t] |= shared >= needed;
            }
        }
        return found;
    }

    /** The word id of Zipf rank r (0 is the most frequent in the background). */
    public int wordOfRank(int rank) {
        return wordOfRank[rank];
    }

    /** Document {@code id} (1-based): the same whatever was generated before it. */
    public Document document(long id) {
        if (id < 1 || id > settings.documents()) {
            throw new IllegalArgumentException("document id must be in [1, " + settings.documents() + "], is " + id);
        }
        UniformRandomProvider rng = streams.stream("planted-corpus-doc", id);
        int k = settings.topics();
        double mean = settings.meanLength() - 1;
        int length = 1;
        if (mean > 0) {
            double g = AhrensDieterMarsagliaTsangGammaSampler.of(rng, LENGTH_SHAPE, 1 / LENGTH_SHAPE).sample();
            length += g * mean > 0 ? PoissonSampler.of(rng, g * mean).sample() : 0;
        }
        double[] cumulative = theta(rng, k);
        SharedStateDiscreteSampler bg = backgroundSampler.withUniformRandomProvider(rng);
        SharedStateDiscreteSampler[] own = new SharedStateDiscreteSampler[k];
        double eps = settings.background();
        int distinct = 0;
        int[] touched = new int[Math.min(length, scratch.length)];
        for (int i = 0; i < length; i++) {
            int t = topicOf(cumulative, rng.nextDouble());
            int w;
            if (rng.nextDouble() < eps) {
                w = bg.sample();
            } else {
                if (own[t] == null) {
                    own[t] = ownSamplers[t].withUniformRandomProvider(rng);
                }
                w = ownWords[t][own[t].sample()];
            }
            if (scratch[w]++ == 0) {
                touched[distinct++] = w;
            }
        }
        int[] words = Arrays.copyOf(touched, distinct);
        Arrays.sort(words);
        int[] counts = new int[distinct];
        for (int j = 0; j < distinct; j++) {
            counts[j] = scratch[words[j]];
            scratch[words[j]] = 0;
        }
        return new Document(id, words, counts, length);
    }

    /**
     * θ ~ Dirichlet(α), as its cumulative sums, from K gamma draws; where every one underflows to 0 (α ≪ 1: a
     * Gamma(α) draw is G·U^(1/α), G ~ Gamma(α + 1)), the same law drawn again in log space ({@link #thetaFromLogs}).
     */
    private double[] theta(UniformRandomProvider rng, int k) {
        ContinuousSampler gamma = AhrensDieterMarsagliaTsangGammaSampler.of(rng,
                settings.alpha(), 1);
        double[] c = new double[k];
        double sum = 0;
        for (int t = 0; t < k; t++) {
            sum += gamma.sample();
            c[t] = sum;
        }
        if (!(sum > 0)) {
            return thetaFromLogs(rng, k);
        }
        for (int t = 0; t < k; t++) {
            c[t] /= sum;
        }
        return c;
    }

    /**
     * θ ~ Dirichlet(α) from log Gamma(α) draws, log G + log(U)/α with G ~ Gamma(α + 1) and U uniform on (0, 1],
     * normalised by their largest: no component underflows before the largest is 1.
     */
    private double[] thetaFromLogs(UniformRandomProvider rng, int k) {
        double alpha = settings.alpha();
        ContinuousSampler gamma = AhrensDieterMarsagliaTsangGammaSampler.of(rng, alpha + 1, 1);
        double[] logs = new double[k];
        double max = Double.NEGATIVE_INFINITY;
        for (int t = 0; t < k; t++) {
            logs[t] = Math.log(gamma.sample()) + Math.log(1 - rng.nextDouble()) / alpha;
            max = Math.max(max, logs[t]);
        }
        double[] c = new double[k];
        double sum = 0;
        for (int t = 0; t < k; t++) {
            sum += Math.exp(logs[t] - max);
            c[t] = sum;
        }
        for (int t = 0; t < k; t++) {
            c[t] /= sum;
        }
        return c;
    }

    /** The first topic whose cumulative share exceeds u. */
    private static int topicOf(double[] cumulative, double u) {
        return Categorical.firstAbove(cumulative, cumulative.length, u);
    }
}
