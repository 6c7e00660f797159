package org.sparkmc.spark.smc;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.smc.GlobalWeights;
import org.sparkmc.core.smc.ResamplingDraw;
import org.sparkmc.core.smc.ResamplingScheme;
import org.sparkmc.core.smc.ResidualBlock;
import org.sparkmc.core.smc.ResidualWeights;

/**
 * A time step's resampling randomness, drawn once for all blocks from the stream keyed by the step: for residual
 * resampling the residual weights gathered from every block (in block order) and the draw over their residual
 * points, otherwise the scheme's draw over N. The blocks then count their offspring from it
 * ({@link Rebalancing#offspring}).
 *
 * @param draw the scheme's draw
 * @param residual the residual weights for residual resampling, else null
 */
record ResamplingPlan(ResamplingDraw draw, ResidualWeights residual) implements Serializable {

    /**
     * @param residualParts every block's residual part (any order), asked for only by residual resampling
     */
    static ResamplingPlan of(ResamplingScheme scheme, GlobalWeights g, long particles, RandomStreams streams,
            int step, Supplier<List<ResidualBlock>> residualParts) {
        if (scheme != ResamplingScheme.RESIDUAL) {
            return new ResamplingPlan(scheme.draw(particles, streams, step), null);
        }
        List<ResidualBlock> parts = new ArrayList<>(residualParts.get());
        parts.sort(Comparator.comparingInt(ResidualBlock::block));
        ResidualWeights residual = ResidualWeights.of(particles, parts);
        return new ResamplingPlan(scheme.draw(residual.residualPoints(), streams, step), residual);
    }
}
