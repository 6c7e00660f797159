package org.sparkmc.spark.lda;

import java.util.ArrayList;
import java.util.List;
import org.sparkmc.core.lda.BestOfChains;
import org.sparkmc.core.lda.PosteriorMeanTopics;

/**
 * The {@code lda} job's chains explored in turn ({@link LdaChains}), each offered when its chain sweeps are done: the
 * best so far by {@link BestOfChains#score} is kept open on the executors with its log-likelihood rows and its
 * topic samples, every other one is closed at once, so at most two chains are held (the best and the one running).
 */
final class BestChain {
    private final List<BestOfChains.Score> scores = new ArrayList<>();
    private LdaRun best;
    private List<LoglikRow> bestHistory;
    private PosteriorMeanTopics bestMean;
    private int chosen = -1;

    /** The score of a chain's log-likelihood rows: the mean per-token log p(w, z) of the last sweeps (sweep 0 not). */
    static BestOfChains.Score score(int chain, long seed, List<LoglikRow> history) {
        double[] perToken = history.stream().filter(r -> r.sweep() > 0).mapToDouble(LoglikRow::perToken).toArray();
        return BestOfChains.Score.of(chain, seed, perToken);
    }

    /**
     * Offers chain {@code chain} (root seed {@code seed}) that has run its chain sweeps: kept if it scores higher
     * than every earlier one (the earlier best is then closed), else closed. Returns its score.
     */
    BestOfChains.Score offer(int chain, long seed, LdaRun run, List<LoglikRow> history, PosteriorMeanTopics mean) {
        BestOfChains.Score s = score(chain, seed, history);
        scores.add(s);
        if (BestOfChains.best(scores) == scores.size() - 1) {
            if (best != null) {
                best.close();
            }
            best = run;
            bestHistory = new ArrayList<>(history);
            bestMean = mean;
            chosen = chain;
        } else {
            run.close();
        }
        return s;
    }

    /** The best chain so far, open. */
    LdaRun best() {
        return best;
    }

    /** Its log-likelihood rows. */
    List<LoglikRow> bestHistory() {
        return bestHistory;
    }

    /** Its topic samples so far (null without {@code --topic-samples}). */
    PosteriorMeanTopics bestMean() {
        return bestMean;
    }

    /** Its index, or -1 before the first offer. */
    int chosen() {
        return chosen;
    }

    /** Every explored chain's score, in chain order. */
    List<BestOfChains.Score> scores() {
        return List.copyOf(scores);
    }

    /** Closes the best chain unless it is {@code running} (closed by its owner): when a failure ends the run. */
    void closeUnless(LdaRun running) {
        if (best != null && best != running) {
            best.close();
        }
        best = null;
    }
}
