package org.sparkmc.core.smc;

import java.io.Serializable;
import org.sparkmc.core.random.Rng;

/**
 * One step of sequential importance sampling for a block of particles: move each particle from step n−1 to n
 * with the proposal q_n(x_n | x_{1:n−1}) (at n = 0, draw it from q_0) and write the log incremental weight
 * log α_n = log [γ_n(x_{1:n}) / (γ_{n−1}(x_{1:n−1}) q_n(x_n | x_{1:n−1}))] (Doucet &amp; Johansen 2009, §3.3).
 * States are N×d row-major and updated in place (only the current state is kept, not the path);
 * {@code logIncrement[i − from]} receives particle i's log α_n. Implementations are stateless and serializable.
 */
public interface ParticleKernel extends Serializable {

    /** d, the dimension of a particle's state. */
    int dimension();

    /** p, the number of values in each step's data (the model's observation dimension), or −1 if any is accepted. */
    default int dataDimension() {
        return -1;
    }

    /**
     * Moves particles [from, to) to step n and writes their log incremental weights.
     *
     * @param data what step n conditions on (the observation y_n for a filter; it may contain NaN for a missing
     *     observation, which a filter treats as "no weighting"); null when the sequence has no data
     * @param rng the block's stream for this step, keyed by (step, block)
     */
    void propagate(int step, double[] data, double[] states, int from, int to, Rng rng, double[] logIncrement);

    /** The bootstrap filter (Gordon, Salmond &amp; Smith 1993): propose from the model, weight by g_n(y_n | x_n). */
    static ParticleKernel bootstrap(StateSpaceModel model) {
        return new BootstrapKernel(model);
    }

    /** A guided filter: propose from q, weight by μ·g/q_0 at step 0 and f·g/q after. */
    static ParticleKernel guided(StateSpaceModel model, GuidedProposal proposal) {
        return new GuidedKernel(model, proposal);
    }
}
