package org.sparkmc.spark.sync;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.io.UncheckedIOException;

/**
 * Java serialisation of an object a relay round carries whole (the {@code lda} counts the driver asks for), or a
 * checkpoint saves, readable on a driver or an executor: classes resolve through sparkmc's own class loader first (on
 * an executor the application's jar is not on the system loader's path). What rounds carry every step goes through
 * {@link FrameWriter} instead. An array longer than the frame's bytes could hold (a corrupt or hostile length) is
 * refused before it is allocated.
 */
public final class JavaFrames {
    private JavaFrames() {
    }

    /** The object's Java-serialised bytes. */
    public static byte[] encode(Serializable value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** The object in {@code frame[from, from + length)}, of {@code type}. */
    public static <T> T decode(byte[] frame, int from, int length, Class<T> type) {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(frame, from, length)) {
            @Override
            protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
                try {
                    return Class.forName(desc.getName(), false, JavaFrames.class.getClassLoader());
                } catch (ClassNotFoundException e) {
                    return super.resolveClass(desc);
                }
            }
        }) {
            // An array's elements take a byte each at least: a longer one is a corrupt length, refused before
            // the array is allocated (with whatever filter the JVM sets besides).
            ObjectInputFilter bound = info -> info.arrayLength() > length ? ObjectInputFilter.Status.REJECTED
                    : ObjectInputFilter.Status.UNDECIDED;
            ObjectInputFilter jvm = in.getObjectInputFilter();
            in.setObjectInputFilter(jvm == null ? bound : ObjectInputFilter.merge(bound, jvm));
            return type.cast(in.readObject());
        } catch (IOException | ClassNotFoundException | ClassCastException e) {
            throw new IllegalStateException("an unreadable frame from the relay", e);
        }
    }
}
