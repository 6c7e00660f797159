package org.sparkmc.core.model;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An undirected graph on vertices 0…n−1 in compressed adjacency form (each vertex's neighbours in one int array):
 * the structure of a Markov random field. Immutable.
 */
public final class Graph implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int[] offsets;
    private final int[] neighbours;

    private Graph(int[] offsets, int[] neighbours) {
        this.offsets = offsets;
        this.neighbours = neighbours;
    }

    /**
     * A graph from an edge list (pairs {u, v}, u ≠ v); duplicate edges are kept once.
     *
     * @throws IllegalArgumentException if {@code vertices} is negative or an edge is not a pair of distinct vertices
     */
    public static Graph of(int vertices, int[][] edges) {
        if (vertices < 0) {
            throw new IllegalArgumentException("a graph needs a non-negative number of vertices, got " + vertices);
        }
        List<List<Integer>> adj = new ArrayList<>(vertices);
        for (int i = 0; i < vertices; i++) {
            adj.add(new ArrayList<>());
        }
        for (int[] e : edges) {
            if (e.length != 2 || e[0] == e[1] || e[0] < 0 || e[1] < 0 || e[0] >= vertices || e[1] >= vertices) {
                throw new IllegalArgumentException("bad edge " + Arrays.toString(e) + " for " + vertices + " vertices");
            }
            if (!adj.get(e[0]).contains(e[1])) {
                adj.get(e[0]).add(e[1]);
                adj.get(e[1]).add(e[0]);
            }
        }
        int[] offsets = new int[vertices + 1];
        for (int i = 0; i < vertices; i++) {
            offsets[i + 1] = offsets[i] + adj.get(i).size();
        }
        int[] nb = new int[offsets[vertices]];
        for (int i = 0; i < vertices; i++) {
            int k = offsets[i];
            for (int j : adj.get(i)) {
                nb[k++] = j;
            }
        }
        return new Graph(offsets, nb);
    }

    /**
     * The 4-neighbour grid of {@code height} rows × {@code width} columns; vertex r·width + c.
     *
     * @throws IllegalArgumentException if a side is not positive, or the grid has more neighbour entries (about
     *     4·height·width) than an array holds
     */
    public static Graph grid(int height, int width) {
        if (height <= 0 || width <= 0) {
            throw new IllegalArgumentException("grid needs positive sides, is " + height + "×" + width);
        }
        long entries = 2 * ((long) height * (width - 1) + (long) width * (height - 1));
        if (entries > Integer.MAX_VALUE - 8 || (long) height * width >= Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("grid " + height + "×" + width + " is too large: "
                    + (long) height * width + " vertices with " + entries + " neighbour entries, more than an array"
                    + " holds (2^31 − 9)");
        }
        int n = height * width;
        int[] offsets = new int[n + 1];
        int[] nb = new int[2 * (height * (width - 1) + width * (height - 1))];
        int k = 0;
        for (int r = 0; r < height; r++) {
            for (int c = 0; c < width; c++) {
                int v = r * width + c;
                offsets[v] = k;
                if (r > 0) {
                    nb[k++] = v - width;
                }
                if (c > 0) {
                    nb[k++] = v - 1;
                }
                if (c < width - 1) {
                    nb[k++] = v + 1;
                }
                if (r < height - 1) {
                    nb[k++] = v + width;
                }
            }
        }
        offsets[n] = k;
        return new Graph(offsets, nb);
    }

    public int vertexCount() {
        return offsets.length - 1;
    }

    public int degree(int v) {
        return offsets[v + 1] - offsets[v];
    }

    /** The j-th neighbour of v, 0 ≤ j &lt; degree(v). */
    public int neighbour(int v, int j) {
        return neighbours[offsets[v] + j];
    }

    /** Number of undirected edges. */
    public int edgeCount() {
        return neighbours.length / 2;
    }
}
