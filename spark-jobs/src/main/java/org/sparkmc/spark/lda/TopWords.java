package org.sparkmc.spark.lda;

import java.util.ArrayList;
import java.util.Arrays;
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

    /** The final state's φ, word-major {@code [w * K + k]} (W·K doubles: for small models and MLlib's matrix). */
    public static double[] phi(TopicWordCounts counts, double beta) {
        int k = counts.numTopics();
        int w = counts.vocabularySize();
        double[] denominator = denominators(counts, beta);
        double[] phi = new double[Math.multiplyExact(w, k)];
        int[] topics = new int[k];
        int[] cells = new int[k];
        for (int v = 0; v < w; v++) {
            for (int t = 0; t < k; t++) {
                phi[v * k + t] = beta / denominator[t];
            }
            int n = counts.row(v, topics, cells);
            for (int e = 0; e < n; e++) {
                phi[v * k + topics[e]] = (cells[e] + beta) / denominator[topics[e]];
            }
        }
        return phi;
    }

    /** n_k + Wβ for every topic: φ's denominators in the final state. */
    static double[] denominators(TopicWordCounts counts, double beta) {
        double[] denominator = new double[counts.numTopics()];
        for (int t = 0; t < denominator.length; t++) {
            denominator[t] = counts.topicTotal(t) + counts.vocabularySize() * beta;
        }
        return denominator;
    }

    /**
     * The {@code n} most probable words of every topic in the final state, topic by topic, by rank, from the sparse
     * counts alone (no W·K array): in a topic φ orders words as their counts do, and the words it never holds tie at
     * β/(n_k + Wβ), lowest ids first.
     */
    public static List<Entry> of(TopicWordCounts counts, double beta, int n) {
        int k = counts.numTopics();
        int w = counts.vocabularySize();
        int m = Math.min(n, w);
        // Per topic, its best (count, word) so far as a min-heap of longs: count high, then the inverted word id, so
        // that among equal counts the lower word id is the greater key.
        long[][] heaps = new long[k][m];
        int[] sizes = new int[k];
        int[] topics = new int[k];
        int[] cells = new int[k];
        for (int v = 0; v < w && m > 0; v++) {
            int cellsOfRow = counts.row(v, topics, cells);
            for (int e = 0; e < cellsOfRow; e++) {
                offer(heaps[topics[e]], sizes, topics[e], (long) cells[e] << 32 | (Integer.MAX_VALUE - v));
            }
        }
        double[] denominator = denominators(counts, beta);
        List<Entry> out = new ArrayList<>(k * m);
        for (int t = 0; t < k; t++) {
            long[] best = Arrays.copyOf(heaps[t], sizes[t]);
            Arrays.sort(best);
            int rank = 0;
            for (int i = best.length - 1; i >= 0; i--) {
                int word = Integer.MAX_VALUE - (int) best[i];
                int count = (int) (best[i] >>> 32);
                out.add(new Entry(t, ++rank, word, count, (count + beta) / denominator[t]));
            }
            for (int v = 0; rank < m; v++) { // fewer non-zero words than n: the zero-count words, lowest ids first
                if (counts.count(v, t) == 0) {
                    out.add(new Entry(t, ++rank, v, 0, beta / denominator[t]));
                }
            }
        }
        return out;
    }

    /** Adds {@code key} to topic t's min-heap of at most {@code heap.length} greatest keys. */
    private static void offer(long[] heap, int[] sizes, int t, long key) {
        int size = sizes[t];
        int i;
        if (size < heap.length) {
            i = size;
            sizes[t] = size + 1;
            while (i > 0 && heap[(i - 1) / 2] > key) {
                heap[i] = heap[(i - 1) / 2];
                i = (i - 1) / 2;
            }
            heap[i] = key;
            return;
        }
        if (key <= heap[0]) {
            return;
        }
        i = 0;
        while (true) {
            int c = 2 * i + 1;
            if (c >= size) {
                break;
            }
            if (c + 1 < size && heap[c + 1] < heap[c]) {
                c++;
            }
            if (heap[c] >= key) {
                break;
            }
            heap[i] = heap[c];
            i = c;
        }
        heap[i] = key;
    }

    /**
     * The {@code n} most probable words of every topic under a posterior mean φ̄ (word-major {@code [w * K + k]}),
     * topic by topic, by rank; {@code count} is the final state's.
     */
    public static List<Entry> of(double[] phi, TopicWordCounts counts, int n) {
        int k = counts.numTopics();
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
                out.add(new Entry(t, r + 1, best[r], counts.count(best[r], t), phi[best[r] * k + t]));
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
