package org.sparkmc.spark.lda;

import java.util.ArrayList;
import java.util.List;
import org.sparkmc.core.lda.TopicWordCounts;

/**
 * The most probable words of each topic under the reported topics φ: the final state's
 * φ_{k,w} = (n_{k,w} + β)/(n_k + Wβ) (Griffiths &amp; Steyvers 2004), or a posterior mean over several states; ties
 * go to the lower word id.
 */
public final class TopWords {
    /**
     * A topic's word.
     *
     * @param topic k
     * @param rank 1 for the most probable
     * @param word the word's id
     * @param count n_{k,w} in the final state
     * @param probability φ_{k,w}
     */
    public record Entry(int topic, int rank, int word, int count, double probability) {
    }

    private TopWords() {
    }

    /** The final state's φ, word-major {@code [w * K + k]}, from its dense counts ({@code counts.toDense()}). */
    public static double[] phi(TopicWordCounts counts, int[] dense, double beta) {
        int k = counts.numTopics();
        int w = counts.vocabularySize();
        double[] denominator = new double[k];
        for (int t = 0; t < k; t++) {
            denominator[t] = counts.topicTotal(t) + w * beta;
        }
        double[] phi = new double[dense.length];
        for (int i = 0; i < dense.length; i++) {
            phi[i] = (dense[i] + beta) / denominator[i % k];
        }
        return phi;
    }

    /**
     * The {@code n} most probable words of every topic, topic by topic, by rank.
     *
     * @param phi the reported topics, word-major {@code [w * K + k]}
     * @param dense the final state's counts, {@code counts.toDense()}
     */
    public static List<Entry> of(double[] phi, int[] dense, int k, int n) {
        int w = phi.length / k;
        List<Entry> out = new ArrayList<>(k * Math.min(n, w));
        for (int t = 0; t < k; t++) {
            int[] best = new int[Math.min(n, w)];
            int size = 0;
            for (int v = 0; v < w; v++) {
                if (size < best.length) {
                    best[size++] = v;
                    siftUp(best, size - 1, phi, k, t);
                } else if (phi[v * k + t] > phi[best[size - 1] * k + t]) {
                    best[size - 1] = v;
                    siftUp(best, size - 1, phi, k, t);
                }
            }
            for (int r = 0; r < size; r++) {
                out.add(new Entry(t, r + 1, best[r], dense[best[r] * k + t], phi[best[r] * k + t]));
            }
        }
        return out;
    }

    /** Insertion step keeping best[0..i] sorted by φ descending, then word id ascending. */
    private static void siftUp(int[] best, int i, double[] phi, int k, int t) {
        int v = best[i];
        double p = phi[v * k + t];
        while (i > 0) {
            int u = best[i - 1];
            double pu = phi[u * k + t];
            if (pu > p || (pu == p && u < v)) {
                break;
            }
            best[i] = u;
            i--;
        }
        best[i] = v;
    }
}
