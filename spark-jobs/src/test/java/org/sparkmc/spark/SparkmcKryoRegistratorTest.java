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

    /**
     * Arrays of doubles go in bulk: every value's exact bits (NaN payloads, −0.0, infinities) come back, at every
     * length around the serializer's chunk of 8,192 values, and so do null and empty arrays inside others.
     */
    @Test
    void doubleArraysRoundTripBitForBit() {
        jsc().parallelize(List.of(1)).count();
        SerializerInstance kryo = SparkEnv.get().serializer().newInstance();
        java.util.Random random = new java.util.Random(3);
        for (int length : new int[] {0, 1, 8191, 8192, 8193, 50_000}) {
            double[] values = new double[length];
            for (int i = 0; i < length; i++) {
                values[i] = Double.longBitsToDouble(random.nextLong());
            }
            if (length > 4) {
                values[0] = -0.0;
                values[1] = Double.NEGATIVE_INFINITY;
                values[2] = Double.longBitsToDouble(0x7ff8_0000_dead_beefL); // a NaN with a payload
            }
            double[] copy = kryo.deserialize(kryo.serialize(values, ClassTag$.MODULE$.apply(double[].class)),
                    ClassTag$.MODULE$.apply(double[].class));
            assertEquals(length, copy.length);
            for (int i = 0; i < length; i++) {
                assertEquals(Double.doubleToRawLongBits(values[i]), Double.doubleToRawLongBits(copy[i]), "at " + i);
            }
        }
        double[][] ragged = {null, {}, {1.5, -2.5}};
        double[][] back = kryo.deserialize(kryo.serialize(ragged, ClassTag$.MODULE$.apply(double[][].class)),
                ClassTag$.MODULE$.apply(double[][].class));
        assertEquals(null, back[0]);
        assertEquals(0, back[1].length);
        assertArrayEquals(ragged[2], back[2]);
    }
}
