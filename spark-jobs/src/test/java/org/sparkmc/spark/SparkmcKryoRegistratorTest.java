package org.sparkmc.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.spark.SparkEnv;
import org.apache.spark.serializer.SerializerInstance;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.RoundResult;
import scala.reflect.ClassTag$;

/** Kryo runs with registration required, and what the chains job ships survives a round trip. */
class SparkmcKryoRegistratorTest extends SparkTestBase {

    static final class NotRegistered implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        int value = 1;
    }

    @Test
    void anUnregisteredClassFails() {
        Exception e = assertThrows(Exception.class,
                () -> jsc().parallelize(List.of(1, 2), 2).map(i -> new NotRegistered()).collect());
        assertTrue(String.valueOf(e.getMessage()).contains("not registered"), e.getMessage());
    }

    @Test
    void roundResultsRoundTrip() {
        jsc().parallelize(List.of(1)).count();
        SerializerInstance kryo = SparkEnv.get().serializer().newInstance();
        // a composite kernel's state: a list of its parts' typed states, as a chain carries it between rounds
        Object kernelState = org.sparkmc.core.catalog.KernelCatalog.create("cycle(rwm, am, slice)",
                new org.sparkmc.core.mcmc.KernelSettings(0.1, true, Double.NaN)).initialState(2);
        ChainState state = new ChainState(3, new double[] {1.5, -2}, -7.25, kernelState);
        RoundResult result = new RoundResult(state, 4, new double[][] {{1, 2}, {3, 4}}, 5, 9);
        RoundResult copy = kryo.deserialize(kryo.serialize(result, ClassTag$.MODULE$.apply(RoundResult.class)),
                ClassTag$.MODULE$.apply(RoundResult.class));
        assertEquals(state, copy.state());
        assertEquals(4, copy.round());
        assertArrayEquals(new double[] {3, 4}, copy.draws()[1]);
        assertEquals(5, copy.accepted());
        assertEquals(9, copy.proposed());
    }
}
