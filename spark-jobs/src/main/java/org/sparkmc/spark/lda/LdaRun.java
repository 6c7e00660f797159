package org.sparkmc.spark.lda;

import java.util.function.Consumer;
import java.util.function.IntPredicate;
import org.apache.spark.api.java.JavaRDD;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.TopicWordCounts;

/**
 * A distributed collapsed Gibbs LDA chain as the {@code lda} job drives it, whatever its mode: AD-LDA with the whole
 * topic–word table on every executor ({@link AdLdaSpark}), or model-parallel with the table cut into rotating word
 * slices ({@link ModelParallelSpark}). The documents and their topic assignments stay on the executors.
 */
public interface LdaRun {
    /**
     * Runs {@code numSteps} steps of {@code sweepsPerStep} sweeps each and passes each step's figures to
     * {@code afterStep} as it ends; {@link #counts()} are available after the steps {@code countsWanted} names and
     * after the last.
     */
    void advance(int numSteps, int sweepsPerStep, IntPredicate countsWanted, Consumer<AdLdaSpark.Step> afterStep);

    /** The global topic–word counts of the current state, on the driver. */
    TopicWordCounts counts();

    int sweepsDone();

    /** The last step's figures (after the start: the random initial state's, as sweep 0). */
    AdLdaSpark.Step lastStep();

    /** log p(w, z) of the current state. */
    default double logLikelihood() {
        return lastStep().logLikelihood();
    }

    long tokens();

    LdaPriors priors();

    /** The document blocks with their current topics, on the executors (for the outputs and checkpoints). */
    JavaRDD<LdaBlock> blocks();

    /** How a step synchronised, for the progress line. */
    default String syncName(AdLdaSpark.Step step) {
        return step.relayed() ? "relayed" : "broadcast";
    }

    /** Releases what the run keeps on the executors. */
    void close();
}
