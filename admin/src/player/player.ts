import { chooseVariant, fitCanvas, groupSequence, homePosition, relocate, slideDuration, standbyPosition, step, type Position } from './logic';
import { buildSlide, type BuiltSlide, type RenderContext } from './render';
import type { Carousel, Layer, Manifest, NavButton, PlayEventKind, Variant } from './types';

/**
 * Playback of a manifest in the window: which slide shows, for how long, what comes next, the screensaver, hotspots and
 * navigation, and taking over a newer manifest at a slide boundary. The next slide is built (decoded, buffered) while
 * the current one shows; a transition only fades it in.
 *
 * Every slide shown is announced on window as a `ls-player-slide` CustomEvent (detail: mode, carouselId, slideId,
 * index, variant) and on the stage's data attributes, for the editor's preview frame, diagnostics and tests.
 */

export interface PlayerOptions {
  stage: HTMLElement;
  preview: boolean;
  /** ?variant=: a variant name to prefer over the screen's best fit. */
  wantedVariant: string | null;
  /** The URL of an asset's media (the local server's or the origin's). */
  assetUrl(manifest: Manifest, assetId: string): string | undefined;
  report?(kind: PlayEventKind, carouselId: string, slideId: string): void;
  /** A slide was shown (not in a preview): the asset ids it shows in its variant, buttons included. */
  shown?(manifest: Manifest, assetIds: string[]): void;
  transitionMs?: number;
}

interface Shown {
  pos: Position;
  built: BuiltSlide;
  manifest: Manifest;
}

const key = (p: Position, v: Variant) => `${p.mode}:${p.carouselId}:${p.index}:${v.v_id}`;

export class Player {
  private manifest: Manifest | null = null;
  private pending: Manifest | null = null;
  private current: Shown | null = null;
  private prepared: { key: string; manifest: Manifest; built: BuiltSlide } | null = null;
  private leaving: BuiltSlide[] = [];
  private slideTimer: ReturnType<typeof setTimeout> | null = null;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private variants = new Map<string, Variant | undefined>();
  private swallowClicksUntil = 0;
  /** The last touch (or the start, or waking from standby): the screensaver counts from here, not from a slide. */
  private lastActivity = performance.now();
  private showing = 0;
  private readonly transitionMs: number;

  constructor(private o: PlayerOptions) {
    this.transitionMs = o.transitionMs ?? 500;
    this.o.stage.style.setProperty('--ls-transition', `${this.transitionMs}ms`);
    window.addEventListener('resize', () => this.resized());
    if (!o.preview) {
      this.listenForTouches();
      // Dayparting: what the group plays is looked at again every minute (and on each new manifest).
      setInterval(() => this.reschedule(), 60_000);
    }
  }

  /** The group's sequence now, as a key: a change means a window opened or closed. */
  private scheduleKey: string | null = null;

  /**
   * A window opened or closed: a carousel of the group that is no longer in play gives way at the next slide boundary
   * (like a new manifest); the standby carousel shown because the group had nothing to play gives way to the group.
   */
  reschedule(): void {
    const manifest = this.pending ?? this.manifest;
    const cur = this.current;
    if (!manifest || !cur || this.o.preview) return;
    const sequence = groupSequence(manifest);
    const key = sequence.join(',');
    const before = this.scheduleKey;
    this.scheduleKey = key;
    if (before === null || before === key) return;
    const stale = cur.pos.mode === 'group' && !sequence.includes(cur.pos.carouselId);
    const wake = cur.pos.mode === 'standby' && before === '' && sequence.length > 0;
    if (wake) {
      if (this.pending) this.adopt(this.pending);
      const home = homePosition(manifest);
      if (home) void this.show(home);
    } else if (stale) this.update(manifest);
  }

  get position(): Position | null {
    return this.current?.pos ?? null;
  }

  /** Starts (or restarts) on a manifest at a position (default: home). */
  async start(manifest: Manifest, pos?: Position): Promise<boolean> {
    this.adopt(manifest);
    const at = pos ?? homePosition(manifest);
    if (!at) return false;
    this.lastActivity = performance.now();
    await this.show(at, false);
    return true;
  }

  /**
   * A newer manifest: it takes over at the next slide boundary, so a slide is never cut short. When nothing would end
   * the current slide (the end of a carousel that does not loop, no autoplay, a preview), it takes over at once.
   */
  update(manifest: Manifest): void {
    if (!this.current) {
      void this.start(manifest);
      return;
    }
    if (this.slideTimer === null) {
      const pos = relocate(manifest, this.current.pos, this.current.built.slide.sl_id);
      this.adopt(manifest);
      if (pos) void this.show(pos, false);
      return;
    }
    this.pending = manifest;
    this.discardPrepared();
  }

  /** A preview: show one slide, paused (no timers). */
  async showPreview(manifest: Manifest, pos: Position): Promise<void> {
    this.adopt(manifest);
    await this.show(pos, false);
  }

  setWantedVariant(name: string | null): void {
    this.o.wantedVariant = name;
    this.variants.clear();
    this.discardPrepared();
  }

  variantOf = (c: Carousel): Variant | undefined => {
    if (!this.variants.has(c.c_id)) this.variants.set(c.c_id, chooseVariant(c.variants, { width: window.innerWidth, height: window.innerHeight }, this.o.wantedVariant));
    return this.variants.get(c.c_id);
  };

  /** Stops everything (an unknown code): no timers, nothing on the stage. */
  clear(): void {
    this.clearTimers();
    this.discardPrepared();
    for (const b of this.leaving) b.destroy();
    this.leaving = [];
    this.current?.built.destroy();
    this.current = null;
    this.manifest = null;
    this.pending = null;
  }

  private adopt(manifest: Manifest): void {
    this.manifest = manifest;
    this.scheduleKey = groupSequence(manifest).join(',');
    this.pending = null;
    this.variants.clear();
    this.discardPrepared();
  }

  private context(manifest: Manifest): RenderContext {
    return {
      manifest,
      assetUrl: (id) => this.o.assetUrl(manifest, id),
      originUrl: (id) => manifest.assets[id]?.url,
      origin: location.origin,
      preview: this.o.preview,
      onHotspot: (layer) => this.hotspot(layer),
      onNav: (b) => this.nav(b),
    };
  }

  private build(manifest: Manifest, pos: Position): BuiltSlide | null {
    const carousel = manifest.carousels[pos.carouselId];
    const slide = carousel?.slides[pos.index];
    const variant = carousel && this.variantOf(carousel);
    if (!carousel || !slide || !variant) return null;
    const built = buildSlide(this.context(manifest), carousel.c_id, slide, variant);
    this.fit(built);
    built.el.classList.add('pending');
    this.o.stage.append(built.el);
    return built;
  }

  private builtFor(manifest: Manifest, pos: Position): BuiltSlide | null {
    const carousel = manifest.carousels[pos.carouselId];
    const variant = carousel && this.variantOf(carousel);
    if (!variant) return null;
    const k = key(pos, variant);
    if (this.prepared && this.prepared.key === k && this.prepared.manifest === manifest) {
      const built = this.prepared.built;
      this.prepared = null;
      return built;
    }
    return this.build(manifest, pos);
  }

  /** Shows a position: builds it (or takes the prepared one), waits until it is ready, fades it in over the last. */
  private async show(pos: Position, transition = true): Promise<void> {
    const manifest = this.manifest;
    if (!manifest) return;
    const ticket = ++this.showing;
    this.clearSlideTimer();
    const built = this.builtFor(manifest, pos);
    if (!built) return;
    await built.ready;
    // A later show (a tap during the wait) wins.
    if (ticket !== this.showing || this.manifest !== manifest) {
      built.destroy();
      return;
    }
    const previous = this.current;
    this.current = { pos, built, manifest };
    for (const b of this.leaving) b.destroy();
    this.leaving = [];
    if (previous) {
      previous.built.el.classList.replace('current', 'leaving');
      this.leaving.push(previous.built);
      const leaving = previous.built;
      setTimeout(
        () => {
          const i = this.leaving.indexOf(leaving);
          if (i >= 0) {
            this.leaving.splice(i, 1);
            leaving.destroy();
          }
        },
        (transition ? this.transitionMs : 0) + 50,
      );
    }
    // The sheet was in the document at opacity 0 (its layer painted): the change of opacity is the whole transition.
    built.el.classList.toggle('instant', !transition);
    // A sheet built just now may not have had a style at opacity 0 yet: take it, so the fade starts from there.
    if (transition) void getComputedStyle(built.el).opacity;
    built.el.classList.remove('pending');
    built.el.classList.add('current');
    built.start();
    this.announce(pos, built);
    this.scheduleNext(pos, built);
    this.armIdle();
    this.prepareNext();
  }

  private announce(pos: Position, built: BuiltSlide): void {
    const { stage } = this.o;
    stage.dataset.mode = pos.mode;
    stage.dataset.carousel = pos.carouselId;
    stage.dataset.slide = built.slide.sl_id;
    stage.dataset.variant = built.variant.v_name;
    window.dispatchEvent(
      new CustomEvent('ls-player-slide', { detail: { mode: pos.mode, carouselId: pos.carouselId, slideId: built.slide.sl_id, index: pos.index, variant: built.variant.v_name } }),
    );
    if (this.o.preview) return;
    this.o.report?.('play', pos.carouselId, built.slide.sl_id);
    if (this.o.shown && this.manifest) {
      const v = built.variant;
      const ids = (built.slide.layers[v.v_id] ?? []).map((l) => l.ly_assetid).filter((id): id is string => !!id);
      if (v.v_navigation_enabled) for (const b of ['next', 'prev', 'home'] as const) if (v[`v_${b}_assetid`]) ids.push(v[`v_${b}_assetid`]!);
      this.o.shown(this.manifest, ids);
    }
    for (let i = 0; i < built.qrLayers.length; i++) this.o.report?.('qr', pos.carouselId, built.slide.sl_id);
  }

  private scheduleNext(pos: Position, built: BuiltSlide): void {
    if (this.o.preview || !built.variant.v_autoplay) return;
    const ms = slideDuration(built.slide, built.variant, built.videoMs());
    // At the end of a carousel that does not loop there is nothing to go to: it stays (and a new manifest takes over).
    if (!step(this.manifest!, pos, 1, this.variantOf) && !this.pending) return;
    this.slideTimer = setTimeout(() => {
      this.slideTimer = null;
      this.boundary(1);
    }, ms);
  }

  /** A slide's end (or a next/prev tap): a waiting manifest takes over here, then the next slide shows. */
  private boundary(dir: 1 | -1): void {
    if (!this.current) return;
    let pos: Position | undefined = this.current.pos;
    if (this.pending) {
      const slideId = this.current.built.slide.sl_id;
      const manifest = this.pending;
      this.adopt(manifest);
      pos = relocate(manifest, pos, slideId);
      if (!pos) return;
      // The slide that was showing is gone: start where relocate points, else step on from the same place.
      if (manifest.carousels[pos.carouselId]?.slides[pos.index]?.sl_id !== slideId) {
        void this.show(pos);
        return;
      }
    }
    const next = step(this.manifest!, pos, dir, this.variantOf);
    if (next) void this.show(next);
    else if (this.current.manifest !== this.manifest) void this.show(pos, false);
  }

  /** Builds the slide autoplay goes to next, so it is decoded and buffered before its turn. */
  private prepareNext(): void {
    if (this.o.preview || !this.current || !this.manifest) return;
    const next = step(this.manifest, this.current.pos, 1, this.variantOf);
    if (!next) return;
    const carousel = this.manifest.carousels[next.carouselId];
    const variant = carousel && this.variantOf(carousel);
    if (!variant) return;
    const k = key(next, variant);
    if (this.prepared?.key === k && this.prepared.manifest === this.manifest) return;
    this.discardPrepared();
    // The same slide (a one-slide loop) cannot be two sheets at once: it is rebuilt at its turn.
    if (next.carouselId === this.current.pos.carouselId && next.index === this.current.pos.index) return;
    const built = this.build(this.manifest, next);
    if (built) this.prepared = { key: k, manifest: this.manifest, built };
  }

  private discardPrepared(): void {
    this.prepared?.built.destroy();
    this.prepared = null;
  }

  private hotspot(layer: Layer): void {
    const cur = this.current;
    const target = layer.ly_hotspot_carouselid;
    if (!cur || !target || !this.manifest?.carousels[target]?.slides.length) return;
    this.o.report?.('hotspot', cur.pos.carouselId, cur.built.slide.sl_id);
    // A carousel of the group goes on with the group after it; any other plays on its own.
    const mode = groupSequence(this.manifest).includes(target) ? 'group' : 'hotspot';
    void this.show({ mode, carouselId: target, index: 0 });
  }

  private nav(button: NavButton): void {
    if (!this.current || !this.manifest) return;
    if (button === 'home') {
      const home = homePosition(this.pending ?? this.manifest);
      if (this.pending) this.adopt(this.pending);
      if (home) void this.show(home);
      return;
    }
    this.boundary(button === 'next' ? 1 : -1);
  }

  /** Any touch, click, key or wheel keeps the screensaver away; in standby it brings the group back. */
  private listenForTouches(): void {
    /** Answers true when the touch only woke the screen from standby. */
    const touched = (e: Event): boolean => {
      if (this.current?.pos.mode === 'standby' && this.manifest) {
        // The touch only wakes the screen: the hotspot or button under the finger is not pressed by it.
        e.preventDefault();
        e.stopPropagation();
        this.swallowClicksUntil = performance.now() + 800;
        this.lastActivity = performance.now();
        const home = homePosition(this.manifest);
        if (home) void this.show(home);
        return true;
      }
      this.activity();
      return false;
    };
    window.addEventListener('pointerdown', touched, { capture: true });
    window.addEventListener('keydown', (e) => {
      if (touched(e)) return;
      if (e.key === 'ArrowRight') this.nav('next');
      else if (e.key === 'ArrowLeft') this.nav('prev');
      else if (e.key === 'Home') this.nav('home');
    });
    window.addEventListener('wheel', () => this.activity(), { passive: true });
    // A tap inside an iframe layer never reaches this document, but it takes the focus from it.
    window.addEventListener('blur', () => this.activity());
    window.addEventListener(
      'click',
      (e) => {
        if (performance.now() < this.swallowClicksUntil) {
          e.preventDefault();
          e.stopPropagation();
        }
      },
      { capture: true },
    );
  }

  private activity(): void {
    this.lastActivity = performance.now();
    this.armIdle();
  }

  /** The screensaver's timer: the showing variant's timeout after the last activity (none in standby or a preview). */
  private armIdle(): void {
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    const cur = this.current;
    if (this.o.preview || !cur || !this.manifest || cur.pos.mode === 'standby') return;
    const seconds = cur.built.variant.v_screensaver_timeout_s;
    if (!seconds || seconds <= 0) return;
    this.idleTimer = setTimeout(() => this.idle(), Math.max(0, this.lastActivity + seconds * 1000 - performance.now()));
  }

  /** No touch for the screensaver timeout: the standby carousel, or (without one) back from a hotspot's carousel. */
  private idle(): void {
    this.idleTimer = null;
    if (!this.current || !this.manifest) return;
    if (this.pending) this.adopt(this.pending);
    const standby = standbyPosition(this.manifest);
    if (standby) void this.show(standby);
    else if (this.current.pos.mode === 'hotspot') {
      const home = homePosition(this.manifest);
      if (home) void this.show(home);
    }
  }

  private clearSlideTimer(): void {
    if (this.slideTimer !== null) clearTimeout(this.slideTimer);
    this.slideTimer = null;
  }

  private clearTimers(): void {
    this.clearSlideTimer();
    if (this.idleTimer !== null) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private fit(built: BuiltSlide): void {
    const { scale, left, top } = fitCanvas({ width: built.variant.v_width, height: built.variant.v_height }, { width: window.innerWidth, height: window.innerHeight });
    built.canvas.style.transform = `translate(${left}px, ${top}px) scale(${scale})`;
  }

  private resizeTimer: ReturnType<typeof setTimeout> | null = null;
  private resized(): void {
    if (this.resizeTimer !== null) clearTimeout(this.resizeTimer);
    this.resizeTimer = setTimeout(() => {
      this.resizeTimer = null;
      const cur = this.current;
      if (!cur || !this.manifest) return;
      const before = cur.built.variant.v_id;
      this.variants.clear();
      this.discardPrepared();
      const carousel = this.manifest.carousels[cur.pos.carouselId];
      // A turned screen may fit another variant better: the slide is rebuilt in it; else it only scales again.
      if (carousel && this.variantOf(carousel)?.v_id !== before) void this.show(cur.pos, false);
      else {
        this.fit(cur.built);
        this.prepareNext();
      }
    }, 150);
  }
}
