package org.sparkmc.core.mcmc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.RandomStreams;

/** A target whose reported values and names disagree is refused with one message when its chains start. */
class ChainRoundNamesTest {
    /** A 2-d standard normal reporting {@code names} for its two coordinates. */
    private record Named(List<String> names) implements Target {
        @Override
        public int dimension() {
            return 2;
        }

        @Override
        public double logDensity(double[] x) {
            return -0.5 * (x[0] * x[0] + x[1] * x[1]);
        }

        @Override
        public List<String> parameterNames() {
            return names;
        }
    }

    private static String refusal(List<String> names) {
        Kernel<?> kernel = MetropolisHastings.randomWalk(1, false);
        return assertThrows(InvalidInputException.class,
                () -> ChainRound.start(1, new Named(names), kernel, new RandomStreams(1))).getMessage();
    }

    @Test
    void fewerOrMoreNamesThanValues() {
        assertTrue(refusal(List.of("a")).contains("reports 2 values (parameters(position)) but names 1"));
        assertTrue(refusal(List.of("a", "b", "c")).contains("reports 2 values (parameters(position)) but names 3"));
    }

    @Test
    void aNameTwiceOrAReservedName() {
        assertTrue(refusal(List.of("a", "a")).contains("names parameter 'a' twice"));
        assertTrue(refusal(List.of("a", "lp__")).contains("names parameter 'lp__' twice, or uses a name"));
    }

    @Test
    void agreeingNamesStart() {
        ChainState s = ChainRound.start(1, new Named(List.of("a", "b")), MetropolisHastings.randomWalk(1, false),
                new RandomStreams(1));
        assertEquals(2, s.position().length);
    }
}
