package org.sparkmc.core.mcmc;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;
import org.sparkmc.core.model.Graph;

/**
 * A proper vertex colouring of a graph — no edge joins two vertices of one colour — for parallel Gibbs sampling
 * (Gonzalez, Low, Gretton &amp; Guestrin 2011). A bipartite graph (a grid, a tree, a bipartite network) gets the
 * 2-colouring found by breadth-first search; any other graph gets the greedy colouring in order of decreasing degree
 * (Welsh &amp; Powell 1967: at most max degree + 1 colours). Either way the result is checked to be proper.
 */
public final class GraphColouring implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int[] colour;
    private final int[][] members;

    private GraphColouring(int[] colour, int colours) {
        this.colour = colour;
        int[] counts = new int[colours];
        for (int c : colour) {
            counts[c]++;
        }
        members = new int[colours][];
        for (int c = 0; c < colours; c++) {
            members[c] = new int[counts[c]];
        }
        int[] fill = new int[colours];
        for (int v = 0; v < colour.length; v++) {
            members[colour[v]][fill[colour[v]]++] = v;
        }
    }

    /** The 2-colouring if the graph is bipartite, the greedy colouring otherwise; verified proper. */
    public static GraphColouring of(Graph graph) {
        int[] two = twoColouring(graph);
        GraphColouring result = two != null ? new GraphColouring(two, Math.min(2, Math.max(1, maxPlusOne(two))))
                : greedy(graph);
        if (!isProper(graph, result.colour)) {
            throw new IllegalStateException("colouring is not proper");
        }
        return result;
    }

    /** Welsh–Powell greedy colouring (no bipartite check); verified proper. */
    public static GraphColouring greedy(Graph graph) {
        int n = graph.vertexCount();
        Integer[] order = IntStream.range(0, n).boxed().toArray(Integer[]::new);
        Arrays.sort(order, Comparator.comparingInt((Integer v) -> -graph.degree(v)).thenComparingInt(v -> v));
        int[] colour = new int[n];
        Arrays.fill(colour, -1);
        int colours = 0;
        boolean[] used = new boolean[n + 1];
        for (int v : order) {
            int deg = graph.degree(v);
            for (int j = 0; j < deg; j++) {
                int c = colour[graph.neighbour(v, j)];
                if (c >= 0) {
                    used[c] = true;
                }
            }
            int c = 0;
            while (used[c]) {
                c++;
            }
            colour[v] = c;
            colours = Math.max(colours, c + 1);
            for (int j = 0; j < deg; j++) {
                int u = colour[graph.neighbour(v, j)];
                if (u >= 0) {
                    used[u] = false;
                }
            }
        }
        GraphColouring result = new GraphColouring(colour, Math.max(colours, n == 0 ? 0 : 1));
        if (!isProper(graph, colour)) {
            throw new IllegalStateException("greedy colouring is not proper");
        }
        return result;
    }

    /** A 2-colouring by breadth-first search, or null if the graph has an odd cycle. */
    static int[] twoColouring(Graph graph) {
        int n = graph.vertexCount();
        int[] colour = new int[n];
        Arrays.fill(colour, -1);
        int[] queue = new int[n];
        for (int s = 0; s < n; s++) {
            if (colour[s] >= 0) {
                continue;
            }
            colour[s] = 0;
            int head = 0;
            int tail = 0;
            queue[tail++] = s;
            while (head < tail) {
                int v = queue[head++];
                for (int j = 0; j < graph.degree(v); j++) {
                    int u = graph.neighbour(v, j);
                    if (colour[u] < 0) {
                        colour[u] = 1 - colour[v];
                        queue[tail++] = u;
                    } else if (colour[u] == colour[v]) {
                        return null;
                    }
                }
            }
        }
        return colour;
    }

    private static int maxPlusOne(int[] colour) {
        int m = -1;
        for (int c : colour) {
            m = Math.max(m, c);
        }
        return m + 1;
    }

    /** Whether no edge joins two vertices of the same colour. */
    public static boolean isProper(Graph graph, int[] colour) {
        for (int v = 0; v < graph.vertexCount(); v++) {
            for (int j = 0; j < graph.degree(v); j++) {
                if (colour[graph.neighbour(v, j)] == colour[v]) {
                    return false;
                }
            }
        }
        return true;
    }

    public int colourCount() {
        return members.length;
    }

    public int colourOf(int vertex) {
        return colour[vertex];
    }

    /** The vertices of colour c in increasing order (not a copy: do not modify). */
    int[] members(int c) {
        return members[c];
    }

    /** A copy of every vertex's colour. */
    public int[] colours() {
        return colour.clone();
    }
}
