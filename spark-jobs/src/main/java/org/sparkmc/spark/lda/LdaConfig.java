package org.sparkmc.spark.lda;

import java.util.Locale;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.lda.DocumentCompletion;
import org.sparkmc.core.lda.LdaKernel;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.LeftToRight;
import org.sparkmc.core.lda.ModelParallelDriver.TotalsSync;
import org.sparkmc.core.smc.ResamplingScheme;
import org.sparkmc.spark.cli.Require;
import org.sparkmc.spark.io.CheckpointStates;
import org.sparkmc.spark.io.Fingerprint;
import org.sparkmc.spark.io.NotInFingerprint;
import org.sparkmc.spark.sync.SyncVia;

/**
 * The settings of an {@code lda} run.
 *
 * <p>With the mode the run resolved to ({@link Resolved}) and its corpus ({@link Data}), its components are the
 * run's checkpoint {@link Fingerprint}: a {@code --resume} needs them equal but those marked {@link NotInFingerprint}:
 * the sweeps, so that a finished run can be extended; how the held-out documents are evaluated (burn-in, samples,
 * left-to-right) and which topics are reported (top words, topic samples), which do not change the chain (which
 * documents are held out does); the partitions, lineage cuts and how sync steps run, which change no number; and the
 * requested mode and totals synchronisation, which are fingerprinted as resolved ({@link Resolved}).
 *
 * @param priors K, α, β
 * @param kernel the per-token update
 * @param sweeps total Gibbs sweeps
 * @param syncInterval sweeps between merges of the blocks' counts (AD-LDA's sync; 1 = every sweep)
 * @param blocks document blocks B (with the seed, fixes every draw)
 * @param partitions Spark partitions holding the blocks (changes no number)
 * @param seed the root seed
 * @param heldOutEvery documents whose id is a multiple of this are held out for evaluation (0: none)
 * @param completion the held-out fold-in protocol
 * @param topWords words per topic in topics.csv
 * @param lineageInterval steps between cuts of the cached blocks' lineage
 * @param topicSamples states whose topics are averaged into the reported topics (1: the final state's)
 * @param topicSampleEvery sweeps between those states (the last is the final sweep)
 * @param leftToRightParticles particles of the held-out left-to-right estimate (0: not computed)
 * @param leftToRightMoves Gibbs sweeps over earlier tokens after each of its resamplings
 * @param syncVia how the sync steps run in the broadcast mode (changes no number)
 * @param mode how the topic–word table is distributed (auto: by its size)
 * @param totalsSync in the model-parallel mode, when the topic totals are synchronised
 */
public record LdaConfig(LdaPriors priors, LdaKernel kernel, @NotInFingerprint int sweeps, int syncInterval,
        int blocks, @NotInFingerprint int partitions, long seed, int heldOutEvery, @NotInFingerprint int evalBurnIn,
        @NotInFingerprint int evalSamples, @NotInFingerprint int topWords, @NotInFingerprint int lineageInterval,
        @NotInFingerprint int topicSamples, @NotInFingerprint int topicSampleEvery,
        @NotInFingerprint int leftToRightParticles, @NotInFingerprint int leftToRightMoves,
        @NotInFingerprint SyncVia syncVia, @NotInFingerprint LdaMode mode, @NotInFingerprint TotalsSync totalsSync) {
    /** The largest α and β taken (see {@link #checkPrior}). */
    public static final double MAX_PRIOR = 1e6;

    public LdaConfig {
        Require.atLeast(sweeps, 1, "--sweeps");
        Require.atLeast(syncInterval, 1, "--sync-interval");
        Require.atLeast(blocks, 1, "--blocks");
        Require.atLeast(partitions, 1, "--partitions");
        Require.atLeast(heldOutEvery, 0, "--held-out-every");
        if (heldOutEvery == 1) { // every id is a multiple of 1: found only after Spark had read the corpus
            throw new InvalidInputException("--held-out-every must be 0 (no held-out documents) or ≥ 2, is 1: it "
                    + "would hold out every document and leave none to train on");
        }
        Require.atLeast(topWords, 1, "--top-words");
        Require.atLeast(lineageInterval, 1, "--lineage-every");
        Require.atLeast(evalBurnIn, 0, "--eval-burn-in");
        Require.atLeast(evalSamples, 1, "--eval-samples");
        Require.atLeast(topicSamples, 1, "--topic-samples");
        Require.atLeast(topicSampleEvery, 1, "--topic-sample-every");
        Require.atLeast(leftToRightParticles, 0, "--left-to-right");
        Require.atLeast(leftToRightMoves, 0, "--left-to-right-moves");
        if (mode == LdaMode.MODEL_PARALLEL && syncInterval != 1) {
            throw new InvalidInputException("--mode model-parallel samples every token against up-to-date slices of "
                    + "the counts: it does not take --sync-interval " + syncInterval + " (use --mode broadcast for "
                    + "that)");
        }
        checkPrior("--alpha", priors.alpha(), "every document's topic mixture");
        checkPrior("--beta", priors.beta(), "every topic's word distribution");
        if (topicSamples > 1) {
            if ((long) (topicSamples - 1) * topicSampleEvery >= sweeps) {
                throw new InvalidInputException("--topic-samples " + topicSamples + " every " + topicSampleEvery
                        + " sweeps reaches back before sweep 1 of " + sweeps + "; use fewer samples, a shorter "
                        + "--topic-sample-every or more --sweeps");
            }
            if (topicSampleEvery % syncInterval != 0 || sweeps % syncInterval != 0) {
                throw new InvalidInputException("with --sync-interval " + syncInterval + " the global counts exist "
                        + "only every " + syncInterval + " sweeps: --topic-sample-every (" + topicSampleEvery
                        + ") and --sweeps (" + sweeps + ") must be multiples of it");
            }
        }
    }

    /** The settings of the broadcast mode (the model-parallel options at their defaults, unused). */
    public LdaConfig(LdaPriors priors, LdaKernel kernel, int sweeps, int syncInterval, int blocks, int partitions,
            long seed, int heldOutEvery, int evalBurnIn, int evalSamples, int topWords, int lineageInterval,
            int topicSamples, int topicSampleEvery, int leftToRightParticles, int leftToRightMoves,
            SyncVia syncVia) {
        this(priors, kernel, sweeps, syncInterval, blocks, partitions, seed, heldOutEvery, evalBurnIn, evalSamples,
                topWords, lineageInterval, topicSamples, topicSampleEvery, leftToRightParticles, leftToRightMoves,
                syncVia, LdaMode.BROADCAST, TotalsSync.SWEEP);
    }

    /**
     * Refuses a prior above {@link #MAX_PRIOR}: beyond it the log-likelihood's log-gamma differences (lnΓ(n + Kα) −
     * lnΓ(Kα), lnΓ(n + Wβ) − lnΓ(Wβ)) lose their digits and then overflow to NaN, for no modelling purpose.
     */
    private static void checkPrior(String option, double value, String uniform) {
        if (value > MAX_PRIOR) {
            throw new InvalidInputException(option + " is " + value + ", above its limit " + MAX_PRIOR + ": beyond it "
                    + "the log-likelihood's log-gamma terms lose their precision (and overflow to NaN), and a prior "
                    + "that large makes " + uniform + " uniform anyway");
        }
    }

    public LdaConfig withPartitions(int n) {
        return new LdaConfig(priors, kernel, sweeps, syncInterval, blocks, n, seed, heldOutEvery, evalBurnIn,
                evalSamples, topWords, lineageInterval, topicSamples, topicSampleEvery, leftToRightParticles,
                leftToRightMoves, syncVia, mode, totalsSync);
    }

    /** Whether the state after {@code sweep} sweeps is one of the averaged topic samples. */
    public boolean isTopicSample(int sweep) {
        int back = sweeps - sweep;
        return topicSamples > 1 && back >= 0 && back % topicSampleEvery == 0 && back / topicSampleEvery < topicSamples;
    }

    public DocumentCompletion completion() {
        return DocumentCompletion.of(evalBurnIn, evalSamples);
    }

    /** The held-out left-to-right estimator (systematic resampling), or null when it is off. */
    public LeftToRight leftToRight() {
        return leftToRightParticles == 0 ? null
                : LeftToRight.of(leftToRightParticles, ResamplingScheme.SYSTEMATIC, leftToRightMoves);
    }

    public AdLdaSpark.Options samplerOptions() {
        return new AdLdaSpark.Options(priors, blocks, partitions, seed, kernel, lineageInterval, syncVia);
    }

    /**
     * The model-parallel mode's options: P = the blocks (as many word slices), on the largest divisor of P that is
     * at most the partitions (the partitions change no number).
     */
    ModelParallelSpark.Options modelParallelOptions() {
        return new ModelParallelSpark.Options(priors, blocks, partitionsIn(LdaMode.MODEL_PARALLEL), seed, kernel,
                lineageInterval, totalsSync);
    }

    /**
     * The partitions a run in {@code mode} uses: {@code --partitions}, or in the model-parallel mode the largest
     * divisor of the blocks that is at most that.
     */
    public int partitionsIn(LdaMode mode) {
        int n = partitions;
        while (mode == LdaMode.MODEL_PARALLEL && blocks % n != 0) {
            n--;
        }
        return n;
    }

    /**
     * The checkpoint fingerprint of this run on {@code corpus} in the mode it resolved to: a checkpoint resumes only
     * under an equal one (see the class comment), so a model-parallel run (whose topics follow its arranged blocks)
     * resumes only in that mode with the same synchronisation of the totals.
     */
    public String fingerprint(LdaCorpus corpus, LdaMode resolved) {
        return Fingerprint.of(this, resolved(resolved), Data.of(corpus));
    }

    /**
     * The part of {@link #fingerprint} known before the corpus is read: the settings, and the mode when it was given
     * rather than left to {@code auto} (which resolves by the corpus). A checkpoint made with other settings is
     * refused with it before Spark starts ({@link org.sparkmc.spark.io.CheckpointStates#loadNewestComparing}).
     */
    public String settingsFingerprint() {
        return mode == LdaMode.AUTO ? Fingerprint.of(this) : Fingerprint.of(this, resolved(mode));
    }

    private Resolved resolved(LdaMode resolved) {
        return new Resolved(resolved, resolved == LdaMode.MODEL_PARALLEL ? totalsSync : null);
    }

    /**
     * How a run distributes the topic–word table, once resolved: the mode, and when the topic totals are synchronised
     * in the model-parallel mode (null in the broadcast mode, which has no such choice).
     */
    public record Resolved(LdaMode mode, TotalsSync totalsSync) {
    }

    /**
     * The corpus as a checkpoint knows it: its size, {@link LdaDocuments#contentHash()} and the SHA-256 of its
     * vocabulary, not its path, so the same corpus moved elsewhere resumes. (The names begin with {@code data-}:
     * {@link CheckpointStates} reports a difference in them as other data.)
     */
    public record Data(int dataDocuments, long dataTokens, int dataWords, String dataContent,
            String dataVocabularySha256) {
        static Data of(LdaCorpus corpus) {
            LdaDocuments docs = corpus.documents();
            return new Data(docs.numDocuments(), docs.numTokens(), docs.vocabularySize(),
                    String.format(Locale.ROOT, "%016x", docs.contentHash()),
                    CheckpointStates.sha256(String.join("\n", corpus.vocabulary())));
        }
    }
}
