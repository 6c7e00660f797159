package org.sparkmc.spark;

import com.esotericsoftware.kryo.Kryo;
import org.apache.spark.serializer.KryoRegistrator;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.RoundResult;

/**
 * Registers every class sparkmc ships between driver and executors, for Kryo with
 * {@code spark.kryo.registrationRequired=true}.
 */
public final class SparkmcKryoRegistrator implements KryoRegistrator {
    @Override
    public void registerClasses(Kryo kryo) {
        kryo.register(double[].class);
        kryo.register(double[][].class);
        kryo.register(long[].class);
        kryo.register(int[].class);
        kryo.register(Object[].class);
        kryo.register(ChainState.class);
        kryo.register(RoundResult.class);
        kryo.register(java.util.ArrayList.class);
    }
}
