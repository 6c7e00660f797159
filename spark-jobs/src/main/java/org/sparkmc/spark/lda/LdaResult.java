package org.sparkmc.spark.lda;

import java.util.List;
import org.sparkmc.core.lda.BestOfChains;
import org.sparkmc.core.lda.DocumentCompletion;

/**
 * A finished {@code lda} run: the sampler (its blocks still cached, for the document–topic output), the corpus and its
 * split, the log-likelihood rows, and the held-out evaluation.
 *
 * @param heldOutResult document completion of the held-out documents with the reported topics, or null when none
 *     were held out
 * @param meanPhi the reported topics when they are a posterior mean over several states ({@code --topic-samples}),
 *     word-major {@code [w * K + k]}; null when they are the final state's
 * @param finalStateResult with {@code meanPhi}: document completion with the final state's topics; else null
 * @param leftToRightResult the left-to-right estimate over the whole held-out documents with the reported topics, or
 *     null when not asked for ({@code --left-to-right}) or none were held out
 * @param resumed whether the run continued from a checkpoint
 * @param mode the mode the run resolved to (broadcast or model-parallel)
 * @param chains with several chains ({@code --chains}), each chain's score in chain order; else empty
 * @param chosenChain the chain reported (0 with one chain)
 */
public record LdaResult(LdaRun run, LdaCorpus corpus, LdaDocuments training, LdaDocuments heldOut,
        List<LoglikRow> history,
        DocumentCompletion.Result heldOutResult, double[] meanPhi, DocumentCompletion.Result finalStateResult,
        DocumentCompletion.Result leftToRightResult, double seconds, boolean resumed, LdaMode mode,
        List<BestOfChains.Score> chains, int chosenChain) {
    public LoglikRow last() {
        return history.get(history.size() - 1);
    }
}
