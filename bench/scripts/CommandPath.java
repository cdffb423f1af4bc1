// Issue 28 item 2, standalone (not part of the build): which classes of ddf one command runs on the event loop, from
// the socket to its reply bytes. Attaches a debugger (JDI) to a daemon started with a JDWP agent, sends the command
// 50 times to warm up (the first creates the key), then once more with a method-entry request on io.ddf.* and
// records, per thread, every method entered until the daemon is quiet.
//
//   java --add-modules jdk.jdi bench/scripts/CommandPath.java JDWP_PORT RESP_PORT [KEY [VERBOSE]]
//
// bench/scripts/command-path.sh starts the daemon on its defaults and runs this. Counted: the top-level classes of
// ingest whose methods run (a nested or lambda class counts with its file), plus each class of the engine or
// persistence that ingest calls into directly (BF.ADD's BloomChain); what those call in turn (the chain's layers,
// hashing, memory) is the engine's inside and is listed, not counted. The command is BF.ADD KEY the-item.
import com.sun.jdi.Bootstrap;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.connect.AttachingConnector;
import com.sun.jdi.connect.Connector;
import com.sun.jdi.event.Event;
import com.sun.jdi.event.EventQueue;
import com.sun.jdi.event.EventSet;
import com.sun.jdi.event.MethodEntryEvent;
import com.sun.jdi.event.MethodExitEvent;
import com.sun.jdi.request.EventRequest;
import com.sun.jdi.request.MethodEntryRequest;
import com.sun.jdi.request.MethodExitRequest;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

public final class CommandPath
{
    private static final String INGEST = "io.ddf.ingest.";

    /** One thread's methods entered, in order, and the classes counted. */
    private static final class Walk
    {
        final Set<String> methods = new LinkedHashSet<>();
        final Set<String> counted = new LinkedHashSet<>();
        final Set<String> inside = new LinkedHashSet<>();
        /** The io.ddf methods this thread is in, innermost last (from the first entry seen). */
        final ArrayDeque<String> stack = new ArrayDeque<>();
    }

    public static void main(final String[] args) throws Exception
    {
        final int jdwp = Integer.parseInt(args[0]);
        final int port = Integer.parseInt(args[1]);
        final String key = args.length > 2 ? args[2] : "traced";
        final boolean verbose = args.length > 3;
        final AttachingConnector connector = Bootstrap.virtualMachineManager().attachingConnectors().stream()
            .filter(c -> c.name().equals("com.sun.jdi.SocketAttach")).findFirst().orElseThrow();
        final Map<String, Connector.Argument> arguments = connector.defaultArguments();
        arguments.get("hostname").setValue("127.0.0.1");
        arguments.get("port").setValue(Integer.toString(jdwp));
        final VirtualMachine vm = connector.attach(arguments);
        try (Socket socket = new Socket("127.0.0.1", port))
        {
            final OutputStream out = socket.getOutputStream();
            final InputStream in = socket.getInputStream();
            for (int i = 0; i < 50; i++)
            {
                send(out, in, "BF.ADD", key, "warm-" + i);
            }
            // entries and exits, in order per thread, give each thread's stack of io.ddf methods: the caller of each
            // entry, to tell a call from ingest into the engine (no thread is stopped)
            final MethodEntryRequest request = vm.eventRequestManager().createMethodEntryRequest();
            request.addClassFilter("io.ddf.*");
            request.setSuspendPolicy(EventRequest.SUSPEND_NONE);
            final MethodExitRequest exits = vm.eventRequestManager().createMethodExitRequest();
            exits.addClassFilter("io.ddf.*");
            exits.setSuspendPolicy(EventRequest.SUSPEND_NONE);
            request.enable();
            exits.enable();
            final EventQueue queue = vm.eventQueue();
            drain(queue, null, 300); // whatever ran before the command (timers, the sync thread)
            final Map<String, Walk> walks = new LinkedHashMap<>();
            send(out, in, "BF.ADD", key, "the-item");
            drain(queue, walks, 1000);
            request.disable();
            exits.disable();
            final String reply = new String(last, StandardCharsets.US_ASCII).trim();
            System.out.println("command: BF.ADD " + key + " the-item  reply: " + reply);
            for (final Map.Entry<String, Walk> e : walks.entrySet())
            {
                final Walk walk = e.getValue();
                System.out.println("thread " + e.getKey() + ": " + walk.counted.size() + " classes counted (" +
                    walk.methods.size() + " methods), in order of first call:");
                walk.counted.forEach(c -> System.out.println("    " + c));
                if (!walk.inside.isEmpty())
                {
                    walk.inside.removeAll(walk.counted.stream().map(c -> c.substring(c.lastIndexOf('.') + 1)).toList());
                    System.out.println("  the engine's inside, not counted: " + String.join(", ", walk.inside));
                }
                if (verbose)
                {
                    walk.methods.forEach(m -> System.out.println("      " + m));
                }
            }
        }
        finally
        {
            vm.dispose();
        }
    }

    private static void drain(final EventQueue queue, final Map<String, Walk> into, final long quietMillis)
        throws InterruptedException
    {
        // until the daemon is quiet, or for at most 10 quiet periods: the change log's threads (the once-a-second
        // force, the checkpoints' timer) never leave it quiet for long, and their walks are listed apart
        final long deadline = System.nanoTime() + quietMillis * 10_000_000L;
        while (System.nanoTime() < deadline)
        {
            final EventSet set = queue.remove(quietMillis);
            if (set == null)
            {
                return;
            }
            for (final Event event : set)
            {
                if (event instanceof MethodEntryEvent entry && into != null)
                {
                    record(entry, into);
                }
                else if (event instanceof MethodExitEvent exit && into != null)
                {
                    final Walk walk = into.get(exit.thread().name());
                    if (walk != null && !walk.stack.isEmpty())
                    {
                        walk.stack.removeLast();
                    }
                }
            }
            set.resume();
        }
    }

    private static void record(final MethodEntryEvent entry, final Map<String, Walk> into)
    {
        final String thread = entry.thread().name();
        final String type = entry.method().declaringType().name();
        final String top = type.contains("$") ? type.substring(0, type.indexOf('$')) : type;
        final Walk walk = into.computeIfAbsent(thread, t -> new Walk());
        walk.methods.add(type + "." + entry.method().name());
        final String caller = walk.stack.peekLast();
        walk.stack.addLast(type);
        if (top.startsWith(INGEST) || caller != null && caller.startsWith(INGEST))
        {
            walk.counted.add(top);
        }
        else
        {
            walk.inside.add(top.substring(top.lastIndexOf('.') + 1));
        }
    }

    private static byte[] last = new byte[0];

    private static void send(final OutputStream out, final InputStream in, final String... words) throws IOException
    {
        final StringBuilder request = new StringBuilder("*" + words.length + "\r\n");
        for (final String word : words)
        {
            request.append('$').append(word.length()).append("\r\n").append(word).append("\r\n");
        }
        out.write(request.toString().getBytes(StandardCharsets.US_ASCII));
        out.flush();
        final StringBuilder reply = new StringBuilder();
        int b;
        while ((b = in.read()) != -1)
        {
            reply.append((char)b);
            final int n = reply.length();
            if (n >= 2 && reply.charAt(n - 2) == '\r' && reply.charAt(n - 1) == '\n')
            {
                break;
            }
        }
        last = reply.toString().getBytes(StandardCharsets.US_ASCII);
    }
}
