package org.sparkmc.core.smc;

/**
 * Counts the resampling points of a {@link ResamplingDraw} that lie strictly below a position y ∈ [0, 1] on the
 * normalised cumulative-weight scale: F(y) = #{k : point_k &lt; y}. F is non-decreasing, F(0) = 0 and F(1) = n.
 * Particle i with cumulative weights c_{i−1} ≤ c_i gets F(c_i/S) − F(c_{i−1}/S) offspring.
 *
 * <p>A counter may keep a cursor: successive queries must not decrease. One counter serves one thread.
 */
public interface PointCounter {
    /** F(y), the number of points strictly below y. */
    long below(double y);
}
