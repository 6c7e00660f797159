package org.sparkmc.spark.smc;

import java.io.Serializable;

/**
 * A run of consecutive offspring that one source block sends to one destination block when resampling: the global
 * index (among all N new particles) of the first, and their states (count×d row-major). Offspring of a block have
 * consecutive new indices, so a source block produces one run per destination block it reaches.
 */
public final class Offspring implements Serializable {
    private static final long serialVersionUID = 1L;

    private int destination;
    private long firstIndex;
    private double[] states;

    /** For serialization frameworks only. */
    public Offspring() {
    }

    Offspring(int destination, long firstIndex, double[] states) {
        this.destination = destination;
        this.firstIndex = firstIndex;
        this.states = states;
    }

    int destination() {
        return destination;
    }

    long firstIndex() {
        return firstIndex;
    }

    double[] states() {
        return states;
    }
}
