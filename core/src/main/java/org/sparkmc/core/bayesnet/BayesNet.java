package org.sparkmc.core.bayesnet;

import java.io.Serializable;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import org.sparkmc.core.InvalidInputException;

/**
 * A discrete Bayesian network (Pearl 1988): variables with named states, each with a conditional probability
 * table P(X | parents), over a directed acyclic graph.
 *
 * <p>The table of variable i is a flat array of rows, one per parent configuration, each row holding the
 * probabilities of i's states. Parent configurations are numbered in mixed radix with the <em>last</em> parent
 * varying fastest: config = Σ_j s_{p_j}·stride_j. Rows sum to 1 (the reader normalises them). The topological
 * order puts parents before children, breaking ties by declaration order. Immutable and serializable (plain
 * arrays only), so it can be shipped to Spark executors as is.
 */
public final class BayesNet implements Serializable {
    /**
     * At most this many probabilities in a network's tables together (2^24: 128 MB of doubles). The network is
     * held whole on the driver and on every executor, so a larger one would exhaust their memory.
     */
    public static final long MAX_TABLE_ENTRIES = 1L << 24;
    private static final long serialVersionUID = 1L;

    private final String name;
    private final String[] variables;
    private final String[][] states;
    private final int[] cardinality;
    private final int[][] parents;
    private final int[][] strides;
    private final int[][] children;
    private final double[][] cpt;
    private final int[] order;

    /**
     * @param variables names, unique
     * @param states each variable's state names (at least one)
     * @param parents each variable's parent indices
     * @param cpt each variable's table, rows as described above, each row summing to 1 within 1e-9
     * @throws InvalidInputException for inconsistent sizes, duplicate names or a directed cycle
     */
    public BayesNet(String name, String[] variables, String[][] states, int[][] parents, double[][] cpt) {
        int n = variables.length;
        if (states.length != n || parents.length != n || cpt.length != n) {
            throw new InvalidInputException("variables, states, parents and tables differ in number");
        }
        this.name = name;
        this.variables = variables.clone();
        this.states = new String[n][];
        this.cardinality = new int[n];
        this.parents = new int[n][];
        this.strides = new int[n][];
        this.cpt = new double[n][];
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < n; i++) {
            if (index.put(variables[i], i) != null) {
                throw new InvalidInputException("variable " + variables[i] + " is declared twice");
            }
            if (states[i].length < 1) {
                throw new InvalidInputException("variable " + variables[i] + " has no states");
            }
            this.states[i] = states[i].clone();
            this.cardinality[i] = states[i].length;
        }
        List<List<Integer>> kids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            kids.add(new ArrayList<>());
        }
        long total = 0;
        for (int i = 0; i < n; i++) {
            this.parents[i] = parents[i].clone();
            int[] st = new int[parents[i].length];
            int[] parentCards = new int[st.length];
            for (int j = 0; j < st.length; j++) {
                int p = parents[i][j];
                if (p < 0 || p >= n || p == i) {
                    throw new InvalidInputException("variable " + variables[i] + " has an invalid parent index " + p);
                }
                parentCards[j] = cardinality[p];
            }
            total = addTable(total, variables[i], cardinality[i], parentCards);
            long configs = 1;
            for (int j = st.length - 1; j >= 0; j--) {
                st[j] = (int) configs;
                configs *= cardinality[parents[i][j]];
                kids.get(parents[i][j]).add(i);
            }
            this.strides[i] = st;
            if (cpt[i].length != configs * cardinality[i]) {
                throw new InvalidInputException("the table of " + variables[i] + " has " + cpt[i].length
                    + " entries, expected " + configs * cardinality[i]);
            }
            this.cpt[i] = cpt[i].clone();
            for (int r = 0; r < configs; r++) {
                double sum = 0;
                for (int s = 0; s < cardinality[i]; s++) {
                    double v = this.cpt[i][r * cardinality[i] + s];
                    if (!(v >= 0 && v <= 1)) {
                        throw new InvalidInputException("the table of " + variables[i] + " has the probability " + v);
                    }
                    sum += v;
                }
                if (Math.abs(sum - 1) > 1e-9) {
                    throw new InvalidInputException("row " + r + " of the table of " + variables[i] + " sums to " + sum);
                }
            }
        }
        this.children = new int[n][];
        for (int i = 0; i < n; i++) {
            this.children[i] = kids.get(i).stream().mapToInt(Integer::intValue).distinct().toArray();
        }
        this.order = topologicalOrder(n);
    }

    /**
     * Checks, before anything is allocated, that a variable's table fits within {@link #MAX_TABLE_ENTRIES} with the
     * tables before it.
     *
     * @param total        the entries of the tables before this one
     * @param states       the variable's number of states
     * @param parentStates each parent's number of states
     * @return the entries of the tables so far, this one included
     * @throws InvalidInputException naming the variable, its table's size and the limit
     */
    public static long addTable(long total, String variable, int states, int[] parentStates) {
        BigInteger entries = BigInteger.valueOf(states);
        for (int k : parentStates) {
            entries = entries.multiply(BigInteger.valueOf(k));
        }
        BigInteger all = entries.add(BigInteger.valueOf(total));
        if (all.compareTo(BigInteger.valueOf(MAX_TABLE_ENTRIES)) > 0) {
            String needed = String.format(Locale.ROOT, "%,d", entries);
            String before = total == 0 ? "" : String.format(Locale.ROOT, " (%,d with the tables before it)", all);
            throw new InvalidInputException(String.format(Locale.ROOT, "variable %s with %d parent%s needs a table of "
                + "%s probabilities (%s)%s; a network's tables may hold at most %,d (%s) together",
                variable, parentStates.length, parentStates.length == 1 ? "" : "s", needed,
                bytes(entries.multiply(BigInteger.valueOf(Double.BYTES))), before, MAX_TABLE_ENTRIES,
                bytes(BigInteger.valueOf(MAX_TABLE_ENTRIES * Double.BYTES))));
        }
        return all.longValueExact();
    }

    /** A byte count such as 128 MB or 1.00 GB. */
    private static String bytes(BigInteger b) {
        double mb = b.doubleValue() / (1 << 20);
        return mb < 1024 ? String.format(Locale.ROOT, "%.0f MB", mb)
            : String.format(Locale.ROOT, "%.3g GB", mb / 1024);
    }

    private int[] topologicalOrder(int n) {
        int[] indegree = new int[n];
        for (int i = 0; i < n; i++) {
            indegree[i] = (int) Arrays.stream(parents[i]).distinct().count();
            if (indegree[i] != parents[i].length) {
                throw new InvalidInputException("variable " + variables[i] + " lists a parent twice");
            }
        }
        PriorityQueue<Integer> ready = new PriorityQueue<>();
        for (int i = 0; i < n; i++) {
            if (indegree[i] == 0) {
                ready.add(i);
            }
        }
        int[] result = new int[n];
        int k = 0;
        while (!ready.isEmpty()) {
            int v = ready.poll();
            result[k++] = v;
            for (int c : children[v]) {
                if (--indegree[c] == 0) {
                    ready.add(c);
                }
            }
        }
        if (k < n) {
            throw new CycleException(cycle(indegree), variables);
        }
        return result;
    }

    /**
     * One directed cycle among the variables a topological sort left (indegree above 0: each has a parent left),
     * found by walking from the first such variable to a parent left until a variable repeats. The variables
     * after a cycle, which the sort also leaves, are not in it.
     *
     * @return the cycle's variables, starting at its lowest index, each a parent of the next (and the last of the
     *     first)
     */
    private int[] cycle(int[] indegree) {
        int[] step = new int[indegree.length]; // 1 + the place in the walk, 0 if not on it
        List<Integer> walk = new ArrayList<>();
        int v = 0;
        while (indegree[v] == 0) {
            v++;
        }
        while (step[v] == 0) {
            walk.add(v);
            step[v] = walk.size();
            v = Arrays.stream(parents[v]).filter(p -> indegree[p] > 0).findFirst().orElseThrow();
        }
        List<Integer> loop = new ArrayList<>(walk.subList(step[v] - 1, walk.size()));
        Collections.reverse(loop); // the walk went from child to parent
        Collections.rotate(loop, -loop.indexOf(Collections.min(loop)));
        return loop.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The parents given to a network form a directed cycle; {@link #cycle()} names one. */
    public static final class CycleException extends InvalidInputException {
        private static final long serialVersionUID = 1L;
        private final int[] cycle;

        CycleException(int[] cycle, String[] variables) {
            super("the network has a directed cycle through "
                + Arrays.stream(cycle).mapToObj(i -> variables[i]).toList());
            this.cycle = cycle;
        }

        /**
         * The cycle's variables, starting at its lowest index (in a BIF file, the first declared), each a parent of
         * the next and the last a parent of the first.
         */
        public int[] cycle() {
            return cycle.clone();
        }
    }

    public String name() {
        return name;
    }

    /** The number of variables. */
    public int size() {
        return variables.length;
    }

    public String variable(int i) {
        return variables[i];
    }

    /** The index of a variable, or −1 if there is none of that name. */
    public int indexOf(String variable) {
        for (int i = 0; i < variables.length; i++) {
            if (variables[i].equals(variable)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The index of a variable.
     *
     * @throws InvalidInputException naming the unknown variable
     */
    public int requireVariable(String variable) {
        int i = indexOf(variable);
        if (i < 0) {
            throw new InvalidInputException("unknown variable " + variable + " in network '" + name
                + "' (it has " + variables.length + " variables, e.g. " + String.join(", ",
                    Arrays.asList(variables).subList(0, Math.min(5, variables.length))) + ")");
        }
        return i;
    }

    public int cardinality(int i) {
        return cardinality[i];
    }

    public String state(int i, int s) {
        return states[i][s];
    }

    /** The state names of variable i (a copy). */
    public String[] states(int i) {
        return states[i].clone();
    }

    /**
     * The index of a state of variable i.
     *
     * @throws InvalidInputException naming the variable and its states
     */
    public int requireState(int i, String state) {
        for (int s = 0; s < states[i].length; s++) {
            if (states[i][s].equals(state)) {
                return s;
            }
        }
        throw new InvalidInputException("variable " + variables[i] + " has no state " + state + " (its states: "
            + String.join(", ", states[i]) + ")");
    }

    /** Parent indices of variable i (a copy). */
    public int[] parents(int i) {
        return parents[i].clone();
    }

    /** Child indices of variable i (a copy). */
    public int[] children(int i) {
        return children[i].clone();
    }

    /** Variables in topological order (a copy). */
    public int[] topologicalOrder() {
        return order.clone();
    }

    /** The table of variable i (a copy); see the class comment for its layout. */
    public double[] table(int i) {
        return cpt[i].clone();
    }

    /** The offset in variable i's table of the row selected by the parents' states in a full assignment. */
    public int rowOffset(int i, int[] assignment) {
        int[] p = parents[i];
        int[] st = strides[i];
        int config = 0;
        for (int j = 0; j < p.length; j++) {
            config += assignment[p[j]] * st[j];
        }
        return config * cardinality[i];
    }

    /**
     * Whether the table of variable i alone rules out its observed state: P(X_i = s | parents) is 0 in every row
     * whose observed parents hold their evidence, whatever the unobserved ones are. Such evidence has probability
     * zero. The converse does not hold (several tables together can rule evidence out), so this is a cheap check
     * over one table, not a proof that the evidence is possible. False when X_i is unobserved.
     */
    public boolean rulesOut(int i, Evidence evidence) {
        int s = evidence.state(i);
        if (s < 0) {
            return false;
        }
        int[] p = parents[i];
        int[] st = strides[i];
        int k = cardinality[i];
        for (int row = 0; row < cpt[i].length / k; row++) {
            boolean consistent = true;
            for (int j = 0; j < p.length && consistent; j++) {
                int e = evidence.state(p[j]);
                consistent = e < 0 || row / st[j] % cardinality[p[j]] == e;
            }
            if (consistent && cpt[i][row * k + s] > 0) {
                return false;
            }
        }
        return true;
    }

    /** P(X_i = assignment[i] | parents as in assignment). */
    public double probability(int i, int[] assignment) {
        return cpt[i][rowOffset(i, assignment) + assignment[i]];
    }

    /** The joint probability of a full assignment. */
    public double jointProbability(int[] assignment) {
        double p = 1;
        for (int i = 0; i < variables.length; i++) {
            p *= probability(i, assignment);
        }
        return p;
    }

    // Package-private views of the internal arrays for the samplers' hot loops (never modified).
    double[] tableView(int i) {
        return cpt[i];
    }

    int[] parentsView(int i) {
        return parents[i];
    }

    int[] stridesView(int i) {
        return strides[i];
    }

    int[] childrenView(int i) {
        return children[i];
    }

    int[] orderView() {
        return order;
    }
}
