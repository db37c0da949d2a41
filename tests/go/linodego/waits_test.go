package linodegowaits

// linodego's own waiting helpers, run against the emulator through the renaming proxy (issue 46): each must
// return, without error and well within its timeout, at the moment the real API's events and statuses would
// let it, and what it returns must be what the real API would show then (the instance running once its boot
// is finished, the disk ready once its create is, the image available once its capture is, the database
// active once its create is). Each helper is the first to wait for its operation, and the proxy's record
// shows it polled while the operation was under way: it waited, rather than finding the operation over.
//
// The emulator: EMULATOR_URL (`http://127.0.0.1:PORT/v4`) and EMULATOR_TOKEN, as tests/e2e/linodego-waits.e2e.test.ts
// starts it (at `speed`: a create takes 800 ms, a boot 260 ms, a disk 180 ms, a database 7.2 s; linodego polls
// every 50 ms, so each helper sees its operation under way a few times). Without them, the repo's built emulator
// (dist/emulator/cli.js) is started here at that speed; without that either, the tests that need it are
// skipped, saying so.

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/linode/linodego"
)

const (
	region   = "us-east" // Managed Databases, VPCs: in the emulator's catalogue (GET /v4/regions)
	instType = "g6-nanode-1"
	image    = "linode/debian12"
	// The emulator's --speed: 0.1 when an instance create took 8 s at speed 1, 74 s now (emulator/timing.ts).
	speed = 0.1 * 8 / 74
	// Every helper is given this long; at that speed an operation takes from 180 ms to 7.2 s.
	waitSeconds = 120
	// What "well within" means: a helper that takes longer than this has waited wrongly.
	wellWithin = 20 * time.Second
	// linodego's poll delay (client.SetPollDelay; 3 s by default).
	pollDelay = 50 * time.Millisecond
)

var (
	emulatorURL   *url.URL
	emulatorToken string
	noEmulator    string // why the tests that need the emulator are skipped
)

func TestMain(m *testing.M) {
	stop := findEmulator()
	code := m.Run()
	stop()
	os.Exit(code)
}

// findEmulator takes the emulator from the environment, or starts the repo's built one; it returns its stop.
func findEmulator() func() {
	raw, token := os.Getenv("EMULATOR_URL"), os.Getenv("EMULATOR_TOKEN")
	var stop = func() {}
	if raw == "" {
		cli, _ := filepath.Abs(filepath.Join("..", "..", "..", "dist", "emulator", "cli.js"))
		if _, err := os.Stat(cli); err != nil {
			noEmulator = "EMULATOR_URL is not set and the repo's emulator is not built (npm run build)"
			return stop
		}
		token = randomString(32)
		cmd := exec.Command("node", cli, "--port", "0", "--token", token, "--speed", strconv.FormatFloat(speed, 'g', -1, 64))
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		if err == nil {
			err = cmd.Start()
		}
		if err != nil {
			noEmulator = fmt.Sprintf("could not start %s: %v", cli, err)
			return stop
		}
		stop = func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }
		line, err := bufio.NewReader(out).ReadString('\n')
		var printed struct{ URL, Token string }
		if err == nil {
			err = json.Unmarshal([]byte(line), &printed)
		}
		if err != nil {
			noEmulator = fmt.Sprintf("the emulator printed %q: %v", line, err)
			return stop
		}
		raw = printed.URL
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		noEmulator = fmt.Sprintf("EMULATOR_URL %q is not a URL", raw)
		return stop
	}
	emulatorURL, emulatorToken = u, token
	return stop
}

// randomString is n random lowercase letters and digits, as password generators of real clients make them.
func randomString(n int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	for i := range b {
		k, err := rand.Int(rand.Reader, big.NewInt(int64(len(alphabet))))
		if err != nil {
			panic(err)
		}
		b[i] = alphabet[k.Int64()]
	}
	return string(b)
}

// env is one test's client, on the emulator through a fresh renaming proxy.
type env struct {
	t      *testing.T
	ctx    context.Context
	client *linodego.Client
	proxy  *Proxy
}

// setup makes the test's env; on failure the test shows what went through the proxy (the requests and
// answers as linodego sent and read them).
func setup(t *testing.T) *env {
	t.Helper()
	if noEmulator != "" {
		t.Skip(noEmulator)
	}
	proxy := NewProxy(emulatorURL)
	server := httptest.NewServer(proxy)
	t.Cleanup(func() {
		server.Close()
		if t.Failed() {
			var lines []string
			for _, x := range proxy.Exchanges(0) {
				lines = append(lines, x.String())
			}
			t.Logf("through the proxy:\n%s", strings.Join(lines, "\n"))
		}
	})
	client := linodego.NewClient(&http.Client{Timeout: 30 * time.Second})
	client.SetBaseURL(server.URL) // linodego adds /v4
	client.SetToken(emulatorToken)
	client.SetPollDelay(pollDelay)
	client.SetRetryWaitTime(pollDelay)
	return &env{t: t, ctx: context.Background(), client: &client, proxy: proxy}
}

// wait runs one of linodego's helpers: it must return without error, well within its timeout. underway
// tells an answer the helper read that showed the operation still under way; with mustWait, at least one
// must have (the helper waited through the operation, rather than finding it over at its first look).
func wait[T any](e *env, what string, underway func(Exchange) bool, mustWait bool, f func() (T, error)) T {
	e.t.Helper()
	from := e.proxy.Count()
	began := time.Now()
	v, err := f()
	took := time.Since(began)
	if err != nil {
		e.t.Fatalf("%s: %v (after %s)", what, err, took.Round(time.Millisecond))
	}
	if took > wellWithin {
		e.t.Fatalf("%s returned after %s: more than %s for an operation of a fraction of a second", what, took.Round(time.Millisecond), wellWithin)
	}
	seen, polls, firstPoll := 0, 0, time.Duration(0)
	for _, x := range e.proxy.Exchanges(from) {
		if x.Method == http.MethodGet {
			if polls == 0 {
				firstPoll = x.At.Sub(began)
			}
			polls++
		}
		if underway != nil && underway(x) {
			seen++
		}
	}
	e.t.Logf("%s: returned after %s, %d polls, %d of them with the operation under way", what, took.Round(time.Millisecond), polls, seen)
	if mustWait && seen == 0 && firstPoll > 4*pollDelay {
		// The machine stalled the helper's first poll past much of the operation: nothing to tell.
		e.t.Logf("%s: its first poll came %s after it began (the poll delay is %s): too late to tell whether it waited", what, firstPoll.Round(time.Millisecond), pollDelay)
	} else if mustWait && seen == 0 {
		e.t.Fatalf("%s: none of its %d polls saw the operation under way: the test did not test the wait", what, polls)
	}
	return v
}

// eventRecord is the part of an event the predicates read.
type eventRecord struct {
	ID     int                     `json:"id"`
	Action linodego.EventAction    `json:"action"`
	Status linodego.EventStatus    `json:"status"`
	Entity *struct{ ID, Type any } `json:"entity"`
}

// eventsIn is the events of an answer of /v4/account/events (a page) or /v4/account/events/{id} (one).
func eventsIn(x Exchange) []eventRecord {
	if x.Status != http.StatusOK || !strings.HasPrefix(x.Path, "/v4/account/events") {
		return nil
	}
	var page struct{ Data []eventRecord }
	if err := json.Unmarshal(x.Body, &page); err == nil && page.Data != nil {
		return page.Data
	}
	var one eventRecord
	if err := json.Unmarshal(x.Body, &one); err == nil && one.ID != 0 {
		return []eventRecord{one}
	}
	return nil
}

func underwayStatus(s linodego.EventStatus) bool {
	return s == linodego.EventScheduled || s == linodego.EventStarted || s == linodego.EventNotification
}

// eventUnderway: an answer with the entity's event of the action not finished yet.
func eventUnderway(entity linodego.EntityType, id int, action linodego.EventAction) func(Exchange) bool {
	return func(x Exchange) bool {
		for _, ev := range eventsIn(x) {
			if ev.Action == action && ev.Entity != nil && fmt.Sprint(ev.Entity.Type) == string(entity) &&
				fmt.Sprint(ev.Entity.ID) == fmt.Sprint(id) && underwayStatus(ev.Status) {
				return true
			}
		}
		return false
	}
}

// anyEventRunning: an answer with an event of the entity scheduled or started (what WaitForResourceFree waits out).
func anyEventRunning(entity linodego.EntityType, id int) func(Exchange) bool {
	return func(x Exchange) bool {
		for _, ev := range eventsIn(x) {
			if ev.Entity != nil && fmt.Sprint(ev.Entity.Type) == string(entity) && fmt.Sprint(ev.Entity.ID) == fmt.Sprint(id) &&
				(ev.Status == linodego.EventScheduled || ev.Status == linodego.EventStarted) {
				return true
			}
		}
		return false
	}
}

// statusOtherThan: an answer of GET path whose record's status is not yet the one waited for; with an
// item id, the path is a list and the record is that item.
func statusOtherThan(path string, item int, status string) func(Exchange) bool {
	type record struct {
		ID     any // a number, or an image's text id
		Status string
	}
	return func(x Exchange) bool {
		if x.Method != http.MethodGet || x.Path != path || x.Status != http.StatusOK {
			return false
		}
		var page struct{ Data []record }
		var rec record
		if item == 0 {
			if json.Unmarshal(x.Body, &rec) != nil {
				return false
			}
		} else if json.Unmarshal(x.Body, &page) == nil {
			for _, r := range page.Data {
				if fmt.Sprint(r.ID) == fmt.Sprint(item) {
					rec = r
				}
			}
		}
		return rec.Status != "" && rec.Status != status
	}
}

// finished checks an event a helper returned: the one asked for, finished.
func (e *env) finished(ev *linodego.Event, entity linodego.EntityType, id int, action linodego.EventAction) {
	e.t.Helper()
	if ev == nil {
		e.t.Fatalf("%s: no event returned", action)
	}
	if ev.Action != action || ev.Status != linodego.EventFinished || ev.PercentComplete != 100 {
		e.t.Fatalf("%s: got event %d %s %s %d%%", action, ev.ID, ev.Action, ev.Status, ev.PercentComplete)
	}
	if ev.Entity == nil || ev.Entity.Type != entity || fmt.Sprint(ev.Entity.ID) != fmt.Sprint(id) {
		e.t.Fatalf("%s: event %d is of %+v, not %s %d", action, ev.ID, ev.Entity, entity, id)
	}
}

// noEventRunning: once a helper returned, no event of the entity is still under way.
func (e *env) noEventRunning(entity linodego.EntityType, id int) {
	e.t.Helper()
	f := fmt.Sprintf(`{"entity.type": %q, "entity.id": %d}`, entity, id)
	evs, err := e.client.ListEvents(e.ctx, linodego.NewListOptions(0, f))
	if err != nil {
		e.t.Fatalf("ListEvents: %v", err)
	}
	if len(evs) == 0 {
		e.t.Fatalf("no event of %s %d", entity, id)
	}
	for _, ev := range evs {
		if ev.Status == linodego.EventStarted || ev.Status == linodego.EventScheduled {
			e.t.Fatalf("event %d (%s) of %s %d is still %s", ev.ID, ev.Action, entity, id, ev.Status)
		}
	}
}

func (e *env) instanceStatus(id int) linodego.InstanceStatus {
	e.t.Helper()
	inst, err := e.client.GetInstance(e.ctx, id)
	if err != nil {
		e.t.Fatalf("GetInstance: %v", err)
	}
	return inst.Status
}

func (e *env) disk(instID, diskID int) *linodego.InstanceDisk {
	e.t.Helper()
	d, err := e.client.GetInstanceDisk(e.ctx, instID, diskID)
	if err != nil {
		e.t.Fatalf("GetInstanceDisk: %v", err)
	}
	return d
}

func (e *env) check(what string, err error) {
	e.t.Helper()
	if err != nil {
		e.t.Fatalf("%s: %v", what, err)
	}
}

// An instance from an image through its create and boot, shutdowns and boots, a disk resized and a disk
// made, images captured from it, and its delete: each operation waited for by one of linodego's helpers
// (first on it, so that it waits through it), then the state checked to be what the real API shows once
// the operation is over.
func TestInstanceWaits(t *testing.T) {
	t.Parallel()
	e := setup(t)
	c, ctx := e.client, e.ctx
	booted := true
	start := time.Now()
	inst, err := c.CreateInstance(ctx, linodego.InstanceCreateOptions{
		Region:   region,
		Type:     instType,
		Label:    "waits-" + randomString(8),
		Image:    image,
		RootPass: randomString(64),
		Booted:   &booted,
	})
	e.check("CreateInstance", err)
	id := inst.ID
	deleted := false
	t.Cleanup(func() {
		if !deleted {
			_ = c.DeleteInstance(context.Background(), id)
		}
	})
	if inst.Image != image {
		t.Fatalf("the instance's image: %q, want %q (the proxy renames it back)", inst.Image, image)
	}
	self := fmt.Sprintf("/v4/linode/instances/%d", id)

	// linode_create, then linode_boot (scheduled behind the create, started, finished): WaitForEventFinished.
	ev := wait(e, "WaitForEventFinished(linode_create)", eventUnderway(linodego.EntityLinode, id, linodego.ActionLinodeCreate), true,
		func() (*linodego.Event, error) {
			return c.WaitForEventFinished(ctx, id, linodego.EntityLinode, linodego.ActionLinodeCreate, start, waitSeconds)
		})
	e.finished(ev, linodego.EntityLinode, id, linodego.ActionLinodeCreate)
	if ev.SecondaryEntity == nil || ev.SecondaryEntity.ID != image {
		t.Errorf("linode_create's secondary entity: %+v, want the image %s", ev.SecondaryEntity, image)
	}
	ev = wait(e, "WaitForEventFinished(linode_boot)", eventUnderway(linodego.EntityLinode, id, linodego.ActionLinodeBoot), false,
		func() (*linodego.Event, error) {
			return c.WaitForEventFinished(ctx, id, linodego.EntityLinode, linodego.ActionLinodeBoot, start, waitSeconds)
		})
	e.finished(ev, linodego.EntityLinode, id, linodego.ActionLinodeBoot)
	if s := e.instanceStatus(id); s != linodego.InstanceRunning {
		t.Fatalf("linode_boot finished, the instance is %s, not running", s)
	}
	wait(e, "WaitForInstanceStatus(running) once booted", nil, false, func() (*linodego.Instance, error) {
		return c.WaitForInstanceStatus(ctx, id, linodego.InstanceRunning, waitSeconds)
	})

	// A shutdown: WaitForInstanceStatus(offline), then its event.
	start = time.Now()
	e.check("ShutdownInstance", c.ShutdownInstance(ctx, id))
	got := wait(e, "WaitForInstanceStatus(offline)", statusOtherThan(self, 0, string(linodego.InstanceOffline)), true,
		func() (*linodego.Instance, error) {
			return c.WaitForInstanceStatus(ctx, id, linodego.InstanceOffline, waitSeconds)
		})
	if got.Status != linodego.InstanceOffline {
		t.Fatalf("WaitForInstanceStatus returned a %s instance", got.Status)
	}
	ev = wait(e, "WaitForEventFinished(linode_shutdown)", nil, false, func() (*linodego.Event, error) {
		return c.WaitForEventFinished(ctx, id, linodego.EntityLinode, linodego.ActionLinodeShutdown, start, waitSeconds)
	})
	e.finished(ev, linodego.EntityLinode, id, linodego.ActionLinodeShutdown)

	// A boot: WaitForResourceFree returns once it is over, not before.
	e.check("BootInstance", c.BootInstance(ctx, id, 0))
	wait(e, "WaitForResourceFree(linode) during a boot", anyEventRunning(linodego.EntityLinode, id), true, func() (any, error) {
		return nil, c.WaitForResourceFree(ctx, linodego.EntityLinode, id, waitSeconds)
	})
	if s := e.instanceStatus(id); s != linodego.InstanceRunning {
		t.Fatalf("WaitForResourceFree returned during the boot: the instance is %s, not running", s)
	}
	e.noEventRunning(linodego.EntityLinode, id)

	// A shutdown waited for with an event poller made before it (NewEventPoller, WaitForFinished): it
	// leaves the earlier linode_shutdown alone and returns with this one finished.
	poller, err := c.NewEventPoller(ctx, id, linodego.EntityLinode, linodego.ActionLinodeShutdown)
	e.check("NewEventPoller(linode_shutdown)", err)
	e.check("ShutdownInstance", c.ShutdownInstance(ctx, id))
	ev = wait(e, "EventPoller(linode_shutdown).WaitForFinished", eventUnderway(linodego.EntityLinode, id, linodego.ActionLinodeShutdown), true,
		func() (*linodego.Event, error) { return poller.WaitForFinished(ctx, waitSeconds) })
	e.finished(ev, linodego.EntityLinode, id, linodego.ActionLinodeShutdown)
	if s := e.instanceStatus(id); s != linodego.InstanceOffline {
		t.Fatalf("the second linode_shutdown finished, the instance is %s, not offline", s)
	}

	// The image's disk fills the type's allowance: shrink it, waited for with a poller on its secondary
	// entity (the disk).
	disks, err := c.ListInstanceDisks(ctx, id, nil)
	e.check("ListInstanceDisks", err)
	var root *linodego.InstanceDisk
	for i := range disks {
		if disks[i].Filesystem == linodego.FilesystemExt4 {
			root = &disks[i]
		}
	}
	if root == nil {
		t.Fatalf("no ext4 disk among %+v", disks)
	}
	poller, err = c.NewEventPollerWithSecondary(ctx, id, linodego.EntityLinode, root.ID, linodego.ActionDiskResize)
	e.check("NewEventPollerWithSecondary(disk_resize)", err)
	e.check("ResizeInstanceDisk", c.ResizeInstanceDisk(ctx, id, root.ID, root.Size-4096))
	ev = wait(e, "EventPoller(disk_resize, the disk).WaitForFinished", eventUnderway(linodego.EntityLinode, id, linodego.ActionDiskResize), true,
		func() (*linodego.Event, error) { return poller.WaitForFinished(ctx, waitSeconds) })
	e.finished(ev, linodego.EntityLinode, id, linodego.ActionDiskResize)
	if d := e.disk(id, root.ID); d.Status != linodego.DiskReady || d.Size != root.Size-4096 {
		t.Fatalf("disk_resize finished, the disk is %s at %d MB, not ready at %d MB", d.Status, d.Size, root.Size-4096)
	}

	// A disk made in the room freed: disk_create, an event of the instance, the disk its secondary entity.
	start = time.Now()
	disk, err := c.CreateInstanceDisk(ctx, id, linodego.InstanceDiskCreateOptions{Label: "data", Size: 2048, Filesystem: string(linodego.FilesystemExt4)})
	e.check("CreateInstanceDisk", err)
	ev = wait(e, "WaitForEventFinished(disk_create)", eventUnderway(linodego.EntityLinode, id, linodego.ActionDiskCreate), true,
		func() (*linodego.Event, error) {
			return c.WaitForEventFinished(ctx, id, linodego.EntityLinode, linodego.ActionDiskCreate, start, waitSeconds)
		})
	e.finished(ev, linodego.EntityLinode, id, linodego.ActionDiskCreate)
	if ev.SecondaryEntity == nil || fmt.Sprint(ev.SecondaryEntity.ID) != fmt.Sprint(disk.ID) {
		t.Errorf("disk_create's secondary entity: %+v, want the disk %d", ev.SecondaryEntity, disk.ID)
	}
	if d := e.disk(id, disk.ID); d.Status != linodego.DiskReady {
		t.Fatalf("disk_create finished, the disk is %s, not ready", d.Status)
	}

	// That disk grown: WaitForInstanceDiskStatus(ready).
	e.check("ResizeInstanceDisk", c.ResizeInstanceDisk(ctx, id, disk.ID, 3072))
	gotDisk := wait(e, "WaitForInstanceDiskStatus(ready)", statusOtherThan(self+"/disks", disk.ID, string(linodego.DiskReady)), true,
		func() (*linodego.InstanceDisk, error) {
			return c.WaitForInstanceDiskStatus(ctx, id, disk.ID, linodego.DiskReady, waitSeconds)
		})
	if gotDisk.Status != linodego.DiskReady || gotDisk.Size != 3072 {
		t.Fatalf("WaitForInstanceDiskStatus returned a %s disk of %d MB, not ready at 3072", gotDisk.Status, gotDisk.Size)
	}

	// An image captured from the disk: disk_imagize, an event of the instance, the image its secondary entity.
	start = time.Now()
	img, err := c.CreateImage(ctx, linodego.ImageCreateOptions{DiskID: disk.ID, Label: "waits-image-" + randomString(6)})
	e.check("CreateImage", err)
	t.Cleanup(func() { _ = c.DeleteImage(context.Background(), img.ID) })
	ev = wait(e, "WaitForEventFinished(disk_imagize)", eventUnderway(linodego.EntityLinode, id, linodego.ActionDiskImagize), true,
		func() (*linodego.Event, error) {
			return c.WaitForEventFinished(ctx, id, linodego.EntityLinode, linodego.ActionDiskImagize, start, waitSeconds)
		})
	e.finished(ev, linodego.EntityLinode, id, linodego.ActionDiskImagize)
	if ev.SecondaryEntity == nil || fmt.Sprint(ev.SecondaryEntity.ID) != img.ID {
		t.Errorf("disk_imagize's secondary entity: %+v, want the image %s", ev.SecondaryEntity, img.ID)
	}
	if got, err := c.GetImage(ctx, img.ID); err != nil || got.Status != linodego.ImageStatusAvailable {
		t.Fatalf("disk_imagize finished, the image is %+v (%v), not available", got, err)
	}
	// A second capture: WaitForImageStatus(available).
	img2, err := c.CreateImage(ctx, linodego.ImageCreateOptions{DiskID: disk.ID, Label: "waits-image-" + randomString(6)})
	e.check("CreateImage", err)
	t.Cleanup(func() { _ = c.DeleteImage(context.Background(), img2.ID) })
	if img2.Status != linodego.ImageStatusCreating {
		t.Errorf("a capture's image is %s, not creating", img2.Status)
	}
	gotImg := wait(e, "WaitForImageStatus(available)", statusOtherThan("/v4/images/"+img2.ID, 0, string(linodego.ImageStatusAvailable)), true,
		func() (*linodego.Image, error) {
			return c.WaitForImageStatus(ctx, img2.ID, linodego.ImageStatusAvailable, waitSeconds)
		})
	if gotImg.Status != linodego.ImageStatusAvailable {
		t.Fatalf("WaitForImageStatus returned a %s image", gotImg.Status)
	}

	// A boot waited for with an event poller: it leaves the earlier linode_boots alone.
	poller, err = c.NewEventPoller(ctx, id, linodego.EntityLinode, linodego.ActionLinodeBoot)
	e.check("NewEventPoller(linode_boot)", err)
	e.check("BootInstance", c.BootInstance(ctx, id, 0))
	ev = wait(e, "EventPoller(linode_boot).WaitForFinished", eventUnderway(linodego.EntityLinode, id, linodego.ActionLinodeBoot), true,
		func() (*linodego.Event, error) { return poller.WaitForFinished(ctx, waitSeconds) })
	e.finished(ev, linodego.EntityLinode, id, linodego.ActionLinodeBoot)
	if s := e.instanceStatus(id); s != linodego.InstanceRunning {
		t.Fatalf("the last linode_boot finished, the instance is %s, not running", s)
	}

	// The delete, with a poller made without the entity (as for a create), its id set after.
	poller, err = c.NewEventPollerWithoutEntity(linodego.EntityLinode, linodego.ActionLinodeDelete)
	e.check("NewEventPollerWithoutEntity(linode_delete)", err)
	poller.EntityID = id
	e.check("DeleteInstance", c.DeleteInstance(ctx, id))
	deleted = true
	ev = wait(e, "EventPoller(linode_delete).WaitForFinished", eventUnderway(linodego.EntityLinode, id, linodego.ActionLinodeDelete), false,
		func() (*linodego.Event, error) { return poller.WaitForFinished(ctx, waitSeconds) })
	e.finished(ev, linodego.EntityLinode, id, linodego.ActionLinodeDelete)
	if _, err := c.GetInstance(ctx, id); err == nil {
		t.Fatalf("linode_delete finished, the instance is still there")
	}
}

// MySQL databases: database_create is a notification while the cluster provisions, then finished once it
// is active (as recorded: docs/spec-gaps.md, Events). Two clusters side by side, each with its own client:
// one waited for by its event, the other by its status.
func TestDatabaseWaits(t *testing.T) {
	t.Parallel()
	t.Run("WaitForEventFinished", func(t *testing.T) {
		t.Parallel()
		e := setup(t)
		start := time.Now()
		db := e.mysql()
		// The create's event is a notification, neither scheduled nor started: WaitForResourceFree does not
		// wait for the cluster, on the real API as here.
		wait(e, "WaitForResourceFree(database) while it provisions", nil, false, func() (any, error) {
			return nil, e.client.WaitForResourceFree(e.ctx, linodego.EntityDatabase, db.ID, waitSeconds)
		})
		ev := wait(e, "WaitForEventFinished(database_create)", eventUnderway(linodego.EntityDatabase, db.ID, linodego.ActionDatabaseCreate), true,
			func() (*linodego.Event, error) {
				return e.client.WaitForEventFinished(e.ctx, db.ID, linodego.EntityDatabase, linodego.ActionDatabaseCreate, start, waitSeconds)
			})
		e.finished(ev, linodego.EntityDatabase, db.ID, linodego.ActionDatabaseCreate)
		if got, err := e.client.GetMySQLDatabase(e.ctx, db.ID); err != nil || got.Status != linodego.DatabaseStatusActive {
			t.Fatalf("database_create finished, the database is %+v (%v), not active", got, err)
		}
		e.noEventRunning(linodego.EntityDatabase, db.ID)
	})
	t.Run("WaitForDatabaseStatus", func(t *testing.T) {
		t.Parallel()
		e := setup(t)
		db := e.mysql()
		wait(e, "WaitForDatabaseStatus(mysql, active)", statusOtherThan(fmt.Sprintf("/v4/databases/mysql/instances/%d", db.ID), 0, string(linodego.DatabaseStatusActive)), true,
			func() (any, error) {
				return nil, e.client.WaitForDatabaseStatus(e.ctx, db.ID, linodego.DatabaseEngineTypeMySQL, linodego.DatabaseStatusActive, waitSeconds)
			})
		// The real API finishes the create's event when the cluster is active.
		evs, err := e.client.ListEvents(e.ctx, linodego.NewListOptions(0, fmt.Sprintf(`{"entity.type": "database", "entity.id": %d, "action": "database_create"}`, db.ID)))
		e.check("ListEvents", err)
		if len(evs) != 1 || evs[0].Status != linodego.EventFinished {
			t.Fatalf("the database is active, its database_create events: %+v, not one finished", evs)
		}
	})
}

// mysql makes a one-node MySQL cluster, deleted at the end of the test.
func (e *env) mysql() *linodego.MySQLDatabase {
	e.t.Helper()
	db, err := e.client.CreateMySQLDatabase(e.ctx, linodego.MySQLCreateOptions{
		Label:       "waits-db-" + randomString(8),
		Region:      region,
		Type:        instType,
		Engine:      "mysql/8",
		ClusterSize: 1,
	})
	e.check("CreateMySQLDatabase", err)
	e.t.Cleanup(func() { _ = e.client.DeleteMySQLDatabase(context.Background(), db.ID) })
	if db.Status != linodego.DatabaseStatusProvisioning {
		e.t.Errorf("a new database is %s, not provisioning", db.Status)
	}
	return db
}
