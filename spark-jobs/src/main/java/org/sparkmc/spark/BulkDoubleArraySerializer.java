package org.sparkmc.spark;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;

/**
 * Kryo's form of a {@code double[]}: its length plus one (0 for null, as Kryo's own array serializers write it), then
 * its values' exact bits, little-endian, copied in bulk through a buffer. Kryo's own serializer writes the values one
 * by one, which made draws and particles cost several times a copy to ship, shuffle and spill. One instance per Kryo
 * instance (its buffer is not shared between threads).
 */
final class BulkDoubleArraySerializer extends Serializer<double[]> {
    private static final int CHUNK = 8192; // values per copy through the buffer
    private final byte[] buffer = new byte[8 * CHUNK];
    private final DoubleBuffer view = ByteBuffer.wrap(buffer).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer();

    BulkDoubleArraySerializer() {
        setAcceptsNull(true);
    }

    @Override
    public void write(Kryo kryo, Output output, double[] values) {
        if (values == null) {
            output.writeVarInt(0, true);
            return;
        }
        output.writeVarInt(values.length + 1, true);
        for (int from = 0; from < values.length; from += CHUNK) {
            int n = Math.min(CHUNK, values.length - from);
            view.clear();
            view.put(values, from, n);
            output.writeBytes(buffer, 0, 8 * n);
        }
    }

    @Override
    public double[] read(Kryo kryo, Input input, Class<double[]> type) {
        int length = input.readVarInt(true);
        if (length == 0) {
            return null;
        }
        double[] values = new double[length - 1];
        for (int from = 0; from < values.length; from += CHUNK) {
            int n = Math.min(CHUNK, values.length - from);
            input.readBytes(buffer, 0, 8 * n);
            view.clear();
            view.get(values, from, n);
        }
        return values;
    }

    @Override
    public double[] copy(Kryo kryo, double[] original) {
        return original == null ? null : original.clone();
    }
}
