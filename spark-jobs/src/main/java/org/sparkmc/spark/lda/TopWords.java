package org.sparkmc.spark.lda;

import java.util.ArrayList;
import java.util.List;
import org.sparkmc.core.lda.TopicWordCounts;

/**
 * The most probable words of each topic under φ_{k,w} = (n_{k,w} + β)/(n_k + Wβ), the posterior mean of the topics
 * given the final assignment (Griffiths &amp; Steyvers 2004); ties go to the lower word id.
 */
public final class TopWords {
    /**
     * A topic's word.
     *
     * @param topic k
     * @param rank 1 for the most probable
     * @param word the word's id
     * @param count n_{k,w}
     * @param probability φ_{k,w}
     */
    public record Entry(int topic, int rank, int word, int count, double probability) {
    }

    private TopWords() {
    }

    /**
     * The {@code n} most probable words of every topic, topic by topic, by rank.
     *
     * @param dense {@code counts.toDense()}, which the caller usually needs too
     */
    public static List<Entry> of(TopicWordCounts counts, int[] dense, double beta, int n) {
        int k = counts.numTopics();
        int w = counts.vocabularySize();
        List<Entry> out = new ArrayList<>(k * Math.min(n, w));
        for (int t = 0; t < k; t++) {
            double denominator = counts.topicTotal(t) + w * beta;
            int[] best = new int[Math.min(n, w)];
            int size = 0;
            for (int v = 0; v < w; v++) {
                int c = dense[v * k + t];
                if (size < best.length) {
                    best[size++] = v;
                    siftUp(best, size - 1, dense, k, t);
                } else if (c > dense[best[size - 1] * k + t]) {
                    best[size - 1] = v;
                    siftUp(best, size - 1, dense, k, t);
                }
            }
            for (int r = 0; r < size; r++) {
                int c = dense[best[r] * k + t];
                out.add(new Entry(t, r + 1, best[r], c, (c + beta) / denominator));
            }
        }
        return out;
    }

    /** Insertion step keeping best[0..i] sorted by count descending, then word id ascending. */
    private static void siftUp(int[] best, int i, int[] dense, int k, int t) {
        int v = best[i];
        int c = dense[v * k + t];
        while (i > 0) {
            int u = best[i - 1];
            int cu = dense[u * k + t];
            if (cu > c || (cu == c && u < v)) {
                break;
            }
            best[i] = u;
            i--;
        }
        best[i] = v;
    }
}
