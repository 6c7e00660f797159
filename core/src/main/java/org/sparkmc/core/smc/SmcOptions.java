package org.sparkmc.core.smc;

import java.io.Serializable;
import java.util.Objects;
import org.sparkmc.core.InvalidInputException;

/**
 * How a particle system runs.
 *
 * @param scheme the resampling scheme
 * @param essThreshold τ: resample after a step whose ESS &lt; τ·N (adaptive resampling, Liu &amp; Chen 1995);
 *     0 never resamples (plain SIS), 1 resamples at every step with unequal weights
 * @param blockSize particles per block: the unit of random streams and summaries. Part of the output contract
 *     with the seed: the same (seed, N, block size) gives the same result on any number of partitions
 * @param missing what a NaN observation does
 */
public record SmcOptions(ResamplingScheme scheme, double essThreshold, int blockSize, MissingObservations missing)
        implements Serializable {
    /** The default block size. */
    public static final int DEFAULT_BLOCK_SIZE = 4096;

    public SmcOptions {
        Objects.requireNonNull(scheme, "scheme");
        Objects.requireNonNull(missing, "missing");
        if (!(essThreshold >= 0 && essThreshold <= 1)) {
            throw new InvalidInputException("ESS threshold must be in [0, 1], is " + essThreshold);
        }
        if (blockSize < 1) {
            throw new InvalidInputException("block size must be positive, is " + blockSize);
        }
    }

    /** Systematic resampling when ESS &lt; N/2, blocks of 4096, missing observations fail. */
    public static SmcOptions defaults() {
        return new SmcOptions(ResamplingScheme.SYSTEMATIC, 0.5, DEFAULT_BLOCK_SIZE, MissingObservations.FAIL);
    }

    /** Plain sequential importance sampling: never resample. */
    public static SmcOptions sis() {
        return defaults().withEssThreshold(0);
    }

    public SmcOptions withScheme(ResamplingScheme s) {
        return new SmcOptions(s, essThreshold, blockSize, missing);
    }

    public SmcOptions withEssThreshold(double tau) {
        return new SmcOptions(scheme, tau, blockSize, missing);
    }

    public SmcOptions withBlockSize(int size) {
        return new SmcOptions(scheme, essThreshold, size, missing);
    }

    public SmcOptions withMissing(MissingObservations m) {
        return new SmcOptions(scheme, essThreshold, blockSize, m);
    }

    /** Whether a step whose weights have this ESS resamples: ESS &lt; τ·N. */
    public boolean resamples(double ess, long particles) {
        return ess < essThreshold * particles;
    }
}
